extension NameIndex {
    /// Builds the index's tables from a lexicon in Swift arrays, then lays them out flat
    /// (`NameTables`): the layout a saved image maps, so a built and a loaded parser read
    /// the same bytes the same way.
    struct Builder {
        private var vocab: HashMap64
        private var words: [[UInt32]] = []
        private var edges: HashMap64
        private var terminal: [Int32] = [-1]
        private var targets: [Target] = []
        private let knownCodes: Set<ECode>
        private let functions: [ECode: [String]]

        init(lexicon: Lexicon) {
            knownCodes = lexicon.knownCodes
            functions = lexicon.functions
            vocab = HashMap64(capacity: lexicon.entries.count * 2 + 1024)
            edges = HashMap64(capacity: lexicon.entries.count * 3 + 4096)
            for entry in lexicon.entries {
                // Codes written as names (`E330`) are the code reader's job; check cheaply first.
                if let f = entry.name.utf8.first, f | 0x20 == 0x65 || f | 0x20 == 0x69 || f | 0x20 == 0x73,
                   entry.name.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }), ECode(entry.name) != nil { continue }
                var t = Target(code: entry.code, contextOnly: entry.contextOnly)
                for key in NameIndex.keys(for: entry.name, plurals: false) {
                    t.chars = key.reduce(0) { $0 + $1.count }
                    t.words = key.count
                    insert(key, t)
                }
            }
            for row in FunctionClasses.table + FunctionClasses.taxonomyTable.map({ ($0.id, $0.phrases) }) {
                for phrase in row.phrases {
                    for key in NameIndex.keys(for: phrase, plurals: true) {
                        insert(key, Target(function: row.id, chars: key.reduce(0) { $0 + $1.count }))
                    }
                }
            }
            for phrase in FunctionClasses.nutrientPhrases + FunctionClasses.taxonomyNutrientPhrases {
                for key in NameIndex.keys(for: phrase, plurals: true) {
                    insert(key, Target(nutrient: true, chars: key.reduce(0) { $0 + $1.count }))
                }
            }
        }

        private mutating func wordID(_ w: [UInt32]) -> Int32 {
            let h = Token.hash(w)
            let found = vocab.get(h)
            if found >= 0 { return found }
            let id = Int32(words.count)
            vocab.set(h, id)
            words.append(w)
            return id
        }

        private mutating func insert(_ key: [[UInt32]], _ target: Target) {
            var node: Int32 = 0
            for w in key {
                let id = wordID(w)
                let edge = NameIndex.edgeKey(node, id)
                let next = edges.get(edge)
                if next >= 0 {
                    node = next
                } else {
                    let fresh = Int32(terminal.count)
                    terminal.append(-1)
                    edges.set(edge, fresh)
                    node = fresh
                }
            }
            let existing = terminal[Int(node)]
            if existing < 0 {
                terminal[Int(node)] = Int32(targets.count)
                targets.append(target)
            } else {
                targets[Int(existing)] = Self.merge(targets[Int(existing)], target)
            }
        }

        /// Two names with the same key: keep the more general code, and the stricter context rule.
        private static func merge(_ a: Target, _ b: Target) -> Target {
            var m = a
            m.function = a.function ?? b.function
            m.nutrient = a.nutrient || b.nutrient
            switch (a.code, b.code) {
            case (nil, let c?):
                m.code = c
                m.contextOnly = b.contextOnly
            case (let x?, let y?):
                if y.isAncestor(of: x) {
                    m.code = y
                    m.contextOnly = b.contextOnly || (x.base == y.base && a.contextOnly)
                } else if x == y || x.isAncestor(of: y) {
                    m.contextOnly = a.contextOnly || b.contextOnly
                } else if a.contextOnly && !b.contextOnly {
                    m.code = y
                    m.contextOnly = false
                }
            default:
                break
            }
            return m
        }

        /// The flat tables (see `NameTables`), in a fresh heap block.
        mutating func tables() -> NameTables {
            var w = NameTables.Writer()
            let vocab = self.vocab.compacted(), edges = self.edges.compacted()
            w.put(.vocabKeys, vocab.keys)
            w.put(.vocabValues, vocab.values)
            w.put(.edgeKeys, edges.keys)
            w.put(.edgeValues, edges.values)
            w.put(.terminal, terminal)

            // Codes and names (function ids) by number.
            var codeIDs: [ECode: Int32] = [:], codes: [ECode] = []
            func codeID(_ c: ECode) -> Int32 {
                if let id = codeIDs[c] { return id }
                codes.append(c)
                codeIDs[c] = Int32(codes.count - 1)
                return Int32(codes.count - 1)
            }
            var nameIDs: [String: Int32] = [:], names: [String] = []
            func nameID(_ s: String) -> Int32 {
                if let id = nameIDs[s] { return id }
                names.append(s)
                nameIDs[s] = Int32(names.count - 1)
                return Int32(names.count - 1)
            }
            w.put(.targetCode, targets.map { $0.code.map(codeID) ?? -1 })
            w.put(.targetFunction, targets.map { $0.function.map(nameID) ?? -1 })
            w.put(.targetInfo, targets.map { t -> UInt32 in
                (t.contextOnly ? 1 : 0) | (t.nutrient ? 2 : 0) | UInt32(min(t.words, 255)) << 2 | UInt32(min(t.chars, 1 << 21)) << 10
            })
            var wordStart: [Int32] = [0]
            wordStart.reserveCapacity(words.count + 1)
            for word in words { wordStart.append(wordStart[wordStart.count - 1] + Int32(word.count)) }
            w.put(.wordStart, wordStart)
            w.put(.letters, words.flatMap { $0 })
            writeDeletions(to: &w)
            writeLongWords(to: &w)

            let known = knownCodes.sorted(), functionCodes = functions.keys.sorted()
            w.put(.knownCodes, known.map(codeID))
            w.put(.functionCodes, functionCodes.map(codeID))
            var functionStart: [Int32] = [0], functionNames: [Int32] = []
            for c in functionCodes {
                functionNames += functions[c]!.map(nameID)
                functionStart.append(Int32(functionNames.count))
            }
            w.put(.functionStart, functionStart)
            w.put(.functionNames, functionNames)
            w.put(.codeNumbers, codes.map { Int32($0.number) })
            w.put(.codeLetters, codes.map { $0.letter?.unicodeScalars.first?.value ?? 0 })
            w.put(.codeRomans, .codeRomanStart, codes.map { $0.roman ?? "" })
            w.put(.nameBytes, .nameStart, names)

            guard let tables = NameTables(owner: w.payload(), payloadOffset: 0) else {
                preconditionFailure("the name index's own tables do not check out")
            }
            return tables
        }

        /// The one-deletion table: every word of `fuzzyMinLength - 1` to 40 letters under the
        /// hash of itself and of each one-letter deletion. Postings of one hash come newest
        /// first (the order the chained table this replaces gave them).
        private func writeDeletions(to w: inout NameTables.Writer) {
            var hashes: [UInt64] = [], suffix: [UInt64] = []
            var postingHash: [UInt64] = [], postingWord: [Int32] = []
            for (id, word) in words.enumerated() where word.count >= NameIndex.fuzzyMinLength - 1 && word.count <= 40 {
                hashes.removeAll(keepingCapacity: true)
                NameIndex.deletionHashes(word[...], into: &hashes, suffix: &suffix)
                for h in hashes {
                    postingHash.append(h)
                    postingWord.append(Int32(id))
                }
            }
            // About two postings a bucket: a probe reads one short run.
            var buckets = 1
            while buckets * 2 < postingHash.count { buckets <<= 1 }
            let shift = UInt64(64 - buckets.trailingZeroBitCount)
            var start = [UInt32](repeating: 0, count: buckets + 1)
            for h in postingHash { start[Int(h >> shift) + 1] += 1 }
            for b in 0..<buckets { start[b + 1] += start[b] }
            var fill = start
            var tag = [UInt32](repeating: 0, count: postingHash.count)
            var word = [Int32](repeating: 0, count: postingHash.count)
            for p in postingHash.indices.reversed() {
                let b = Int(postingHash[p] >> shift)
                let slot = Int(fill[b])
                fill[b] += 1
                tag[slot] = UInt32(truncatingIfNeeded: postingHash[p])
                word[slot] = postingWord[p]
            }
            w.put(.deletionStart, start)
            w.put(.deletionTag, tag)
            w.put(.deletionWord, word)
        }

        /// Words of `twoSlipMinLength` to 40 letters by length and end letters, for two-slip matching.
        private func writeLongWords(to w: inout NameTables.Writer) {
            var byKey: [UInt64: [Int32]] = [:]
            for (id, word) in words.enumerated() where word.count >= NameIndex.twoSlipMinLength && word.count <= 40 {
                byKey[NameIndex.endsKey(word), default: []].append(Int32(id))
            }
            let keys = byKey.keys.sorted()
            var start: [Int32] = [0], ids: [Int32] = []
            for k in keys {
                ids += byKey[k]!
                start.append(Int32(ids.count))
            }
            w.put(.longKeys, keys)
            w.put(.longStart, start)
            w.put(.longWords, ids)
        }
    }
}
