/// A token trie over every lexicon name and class word, with a deletion index for fuzzy words.
///
/// Names are folded like label text and split into words; punctuation inside a
/// name is dropped so `FD&C Yellow No. 5`, `FD&C Yellow #5` and `FD and C`-free
/// spellings meet on the same key. Matching walks the trie word by word from a
/// start position, so the cost per start is bounded by the longest name, not by
/// the number of names. Words the index does not know can stand in for a known
/// word within one edit (found through a sorted table of one-deletion hashes),
/// as long as the whole name stays within a budget scaled to its length.
struct NameIndex: Sendable {
    /// What a complete key means: an additive name, a class word, or both.
    struct Target: Sendable {
        var code: ECode?
        var contextOnly = false
        /// Function id when the key is a class word.
        var function: String?
        /// The key announces nutrients (`vitamins`): numbers and letters after it are not codes.
        var nutrient = false
        /// Folded letters and digits in the key, for the fuzzy budget.
        var chars = 0
    }

    /// One word of label text as the index sees it.
    struct StreamWord {
        var token: Int32
        /// Vocabulary id, or -1 when the word is not in any name.
        var id: Int32
        /// A comma, bracket or code lies between this word and the previous one.
        var barrierBefore: Bool
        var length: Int32
        /// Word confidence is low (OCR): fuzzy matching may reach shorter words.
        var lowConfidence: Bool
    }

    /// The longest key found at a start position.
    struct Match {
        var startWord: Int
        /// One past the last stream word.
        var endWord: Int
        var target: Target
        var edits: Int
    }

    private var vocab: [UInt64: Int32] = [:]
    private var words: [[UInt32]] = []
    private var edges: [UInt64: Int32] = [:]
    private var terminal: [Int32] = [-1]
    private var targets: [Target] = []
    /// Sorted (deletion hash, word id) pairs: the one-edit neighbourhood of every long word.
    private var deletions: [(hash: UInt64, word: Int32)] = []

    /// Words that mark a number (`No. 5`, `N° 5`, `Nr 5`): dropped before a number on both sides.
    static let numberMarks: Set<UInt64> = Set(["NO", "N", "NR", "NUMBER", "NUM", "NB"].map {
        Token.hash($0.unicodeScalars.map(\.value))
    })

    /// Articles and prepositions that labels drop or add inside names (`dioxyde de titane`,
    /// `dioxyde titane`): skipped in names and in text alike.
    static let stopWords: Set<UInt64> = Set(["DE", "D", "DES", "DU", "LA", "LE", "LES", "L", "OF", "DI", "DEL"].map {
        Token.hash($0.unicodeScalars.map(\.value))
    })

    /// Punctuation that may sit inside a name without ending it.
    @inline(__always)
    static func isSoftPunct(_ v: UInt64) -> Bool {
        v == 0x2D || v == 0x26 || v == 0x2E || v == 0x27 || v == 0x23 || v == 0xB0 || v == 0x2B || v == 0x22
    }

    /// Shortest word that fuzzy matching considers.
    static let fuzzyMinLength = 5

    init(lexicon: Lexicon) {
        for entry in lexicon.entries {
            if ECode(entry.name) != nil { continue }
            var t = Target(code: entry.code, contextOnly: entry.contextOnly)
            for key in Self.keys(for: entry.name, plurals: false) {
                t.chars = key.reduce(0) { $0 + $1.count }
                insert(key, t)
            }
        }
        for row in FunctionClasses.table {
            for phrase in row.phrases {
                for key in Self.keys(for: phrase, plurals: true) {
                    insert(key, Target(function: row.id, chars: key.reduce(0) { $0 + $1.count }))
                }
            }
        }
        for phrase in FunctionClasses.nutrientPhrases {
            for key in Self.keys(for: phrase, plurals: true) {
                insert(key, Target(nutrient: true, chars: key.reduce(0) { $0 + $1.count }))
            }
        }
        buildDeletions()
    }

    /// Folded words of a name; a hyphenated name also gives its joined spelling.
    static func keys(for name: String, plurals: Bool) -> [[[UInt32]]] {
        let text = NormalizedText(name)
        let tokens = Token.tokenize(text)
        var key: [[UInt32]] = []
        var joined: [[UInt32]] = []
        var hyphenJoin = false
        for (i, t) in tokens.enumerated() {
            if t.kind == .punct {
                if t.key == 0x2D, i > 0, tokens[i - 1].kind == .word, !t.spaceBefore,
                   i + 1 < tokens.count, tokens[i + 1].kind == .word, !tokens[i + 1].spaceBefore {
                    hyphenJoin = true
                }
                continue
            }
            if numberMarks.contains(t.key), i + 1 < tokens.count {
                var j = i + 1
                while j < tokens.count, tokens[j].kind == .punct, isSoftPunct(tokens[j].key) { j += 1 }
                if j < tokens.count, tokens[j].isDigits { continue }
            }
            if stopWords.contains(t.key) && tokens.count > 1 { continue }
            let w = Array(text.scalars[Int(t.start)..<Int(t.end)])
            key.append(w)
            if hyphenJoin, !joined.isEmpty {
                joined[joined.count - 1] += w
            } else {
                joined.append(w)
            }
            hyphenJoin = false
        }
        // A name needs a letter: `2` split off `2,6-di-tert-butyl` is not a name.
        guard key.contains(where: { $0.contains(where: { !($0 >= 0x30 && $0 <= 0x39) }) }) else { return [] }
        var result = [key]
        if joined != key { result.append(joined) }
        if plurals {
            for k in result {
                for variant in pluralForms(of: k.last!) {
                    var p = k
                    p[p.count - 1] = variant
                    result.append(p)
                }
            }
        }
        return result
    }

    /// Plural endings of the languages in the class table (`-s`, `-es`, `-e`, `-en`, `-n`, Italian `-e`→`-i`).
    private static func pluralForms(of word: [UInt32]) -> [[UInt32]] {
        let s: UInt32 = 0x53, e: UInt32 = 0x45, n: UInt32 = 0x4E, i: UInt32 = 0x49
        var out = [word + [s], word + [e, s], word + [e], word + [e, n], word + [n]]
        if word.last == e || word.last == 0x4F { out.append(word.dropLast() + [i]) }
        return out
    }

    private mutating func wordID(_ w: [UInt32]) -> Int32 {
        let h = Token.hash(w)
        if let id = vocab[h] { return id }
        let id = Int32(words.count)
        vocab[h] = id
        words.append(w)
        return id
    }

    private mutating func insert(_ key: [[UInt32]], _ target: Target) {
        var node: Int32 = 0
        for w in key {
            let id = wordID(w)
            let edge = UInt64(UInt32(bitPattern: node)) << 32 | UInt64(UInt32(bitPattern: id))
            if let next = edges[edge] {
                node = next
            } else {
                let next = Int32(terminal.count)
                terminal.append(-1)
                edges[edge] = next
                node = next
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
            if isAncestor(y, of: x) {
                m.code = y
                m.contextOnly = b.contextOnly || (x.base == y.base && a.contextOnly)
            } else if x == y || isAncestor(x, of: y) {
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

    private static func isAncestor(_ a: ECode, of b: ECode) -> Bool {
        var p = b.parent
        while let q = p {
            if q == a { return true }
            p = q.parent
        }
        return false
    }

    private mutating func buildDeletions() {
        var pairs: [(hash: UInt64, word: Int32)] = []
        for (id, w) in words.enumerated() where w.count >= Self.fuzzyMinLength - 1 && w.count <= 40 {
            pairs.append((Token.hash(w), Int32(id)))
            for skip in 0..<w.count {
                pairs.append((Self.hash(w, skipping: skip), Int32(id)))
            }
        }
        pairs.sort { $0.hash < $1.hash || ($0.hash == $1.hash && $0.word < $1.word) }
        deletions = pairs
    }

    private static func hash(_ w: some Collection<UInt32>, skipping skip: Int) -> UInt64 {
        var h = Token.fnvOffset
        for (k, v) in w.enumerated() where k != skip { h = Token.fnvStep(h, v) }
        return h
    }

    // MARK: Lookup

    /// The vocabulary id of a word token, or -1.
    func id(ofWordHash h: UInt64) -> Int32 { vocab[h] ?? -1 }

    /// Known words within one edit (substitution, insertion, deletion or adjacent swap) of `word`.
    func fuzzyCandidates(_ word: ArraySlice<UInt32>) -> [Int32] {
        guard word.count >= Self.fuzzyMinLength - 1, word.count <= 40 else { return [] }
        var probes: [UInt64] = [Token.hash(word)]
        for skip in 0..<word.count { probes.append(Self.hash(word, skipping: skip)) }
        var found: [Int32] = []
        for p in probes {
            var lo = 0, hi = deletions.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if deletions[mid].hash < p { lo = mid + 1 } else { hi = mid }
            }
            while lo < deletions.count, deletions[lo].hash == p {
                let w = deletions[lo].word
                // A known word plus or minus a last letter is another word (`pectinas` / `pectinase`),
                // not an OCR slip.
                let known = words[Int(w)]
                if !found.contains(w), !known.starts(with: word), !word.starts(with: known),
                   EditDistance.withinOne(known, word) { found.append(w) }
                lo += 1
                if found.count >= 8 { return found }
            }
        }
        return found
    }

    /// Edits a name of `chars` letters may carry: none for short names, more for long ones.
    static func editBudget(chars: Int, lowConfidence: Bool) -> Int {
        let c = lowConfidence ? chars + 3 : chars
        if c < 7 { return 0 }
        if c < 14 { return 1 }
        if c < 24 { return 2 }
        return 3
    }

    /// The longest key that starts at stream word `start`; `fuzzy` gives cached fuzzy candidates per word.
    func longestMatch(_ stream: [StreamWord], at start: Int, fuzzy: (Int) -> [Int32]) -> Match? {
        var best: Match?
        // Depth-first over (node, position, edits, low-confidence seen); branching is bounded
        // by the fuzzy candidate cap, depth by the longest name.
        var stack: [(node: Int32, pos: Int, edits: Int, low: Bool)] = [(0, start, 0, false)]
        var steps = 0
        while let (node, pos, edits, low) = stack.popLast() {
            steps += 1
            if steps > 256 { break }
            guard pos < stream.count else { continue }
            let w = stream[pos]
            if pos > start && w.barrierBefore { continue }
            var options: [(Int32, Int)] = []
            if w.id >= 0 {
                options.append((w.id, 0))
            } else if w.length >= Int32(Self.fuzzyMinLength) || (w.lowConfidence && w.length >= Int32(Self.fuzzyMinLength - 1)) {
                for c in fuzzy(pos) { options.append((c, 1)) }
            }
            for (wid, cost) in options {
                let edge = UInt64(UInt32(bitPattern: node)) << 32 | UInt64(UInt32(bitPattern: wid))
                guard let child = edges[edge] else { continue }
                let e = edits + cost
                if e > 3 { continue }
                let lowHere = low || w.lowConfidence
                let t = terminal[Int(child)]
                if t >= 0 {
                    let target = targets[Int(t)]
                    let allowed = Self.editBudget(chars: target.chars, lowConfidence: lowHere)
                    if e <= allowed {
                        let m = Match(startWord: start, endWord: pos + 1, target: target, edits: e)
                        if let b = best {
                            if m.endWord > b.endWord || (m.endWord == b.endWord && m.edits < b.edits) { best = m }
                        } else {
                            best = m
                        }
                    }
                }
                stack.append((child, pos + 1, e, lowHere))
            }
        }
        return best
    }
}
