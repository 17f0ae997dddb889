/// Slip look-ups of `NameIndex`: the known words a word read with one OCR slip may stand for
/// (one edit, a swap, a merged letter group, a lost edge letter, two words glued).
extension NameIndex {
    /// Two known words glued into one, and where to cut it (`gluedNameWords`).
    struct GluedWords {
        var first: Int32
        var second: Int32
        /// Letters in the first word.
        var cut: Int
    }

    /// Known words within one edit (substitution, insertion, deletion or adjacent swap) of `word`.
    func fuzzyCandidates(_ word: ArraySlice<UInt32>, into found: inout [Int32], cache: inout FuzzyCache) {
        guard word.count >= Self.fuzzyMinLength - 1, word.count <= 40 else { return }
        let first = found.count
        let t = tables
        if oneSlipWords(of: word, into: &found, since: first, cache: &cache, encode: { $0 }) { return }
        // No word one edit away: a long word may carry two shape slips. Such candidates go in as
        // `-(id + 1)`, so the walk charges them two edits.
        if found.count == first, word.count >= Self.twoSlipMinLength, let bucket = t.longBucket(Self.endsKey(word)) {
            for w in bucket where EditDistance.isTwoShapeSlips(t.word(w), word) {
                found.append(-w - 1)
                if found.count - first >= 8 { return }
            }
        }
        if found.count == first, word.count >= Self.mergeSlipMinLength {
            mergeSlipCandidates(word, into: &found, cache: &cache)
        }
        dropElementSwaps(word, &found, since: first)
        if found.count > first, spellsKnownWordWithFirstLetterLost(word) { found.removeSubrange(first...) }
    }

    /// Whether `word` with one letter put before it is a known word (`scorbic`: `ascorbic`). Then a
    /// slip inside it (`scorbic` as `sorbic`, sorbic acid) is no likelier than a first letter lost
    /// at the print's edge (ascorbic acid): neither is read.
    func spellsKnownWordWithFirstLetterLost(_ word: ArraySlice<UInt32>) -> Bool {
        var known = false
        Self.forEachSpellingWithLetterAdded(to: word, atStart: true) { spelled in
            known = tables.vocab.get(Token.hash(spelled)) >= 0
            return known
        }
        return known
    }

    /// The ids of `letters` as a known word and of its other number (`formIDs`), those there are.
    func knownWordAndForms<W: RandomAccessCollection<UInt32>>(_ letters: W) -> [Int32] where W.Index == Int {
        let own = tables.vocab.get(Token.hash(letters))
        let forms = letters.count >= Self.wordFormMinLength ? formIDs(letters, own: own) : (-1, -1)
        return [own, forms.0, forms.1].filter { $0 >= 0 }
    }

    /// The two known words (the second perhaps in its other number) that `word` spells with the
    /// space between them lost, when they begin a name together (`potassiumcitrate`,
    /// `phosphoricacid`), each of three letters or more, and the cut; nil when no cut or several do.
    func gluedNameWords(_ word: ArraySlice<UInt32>) -> GluedWords? {
        let n = word.count, b = word.startIndex
        guard n >= 6, n <= 40 else { return nil }
        var found: (Int32, Int32, Int)?
        for cut in 3...(n - 3) {
            let first = tables.vocab.get(Token.hash(word[b..<(b + cut)]))
            guard first >= 0 else { continue }
            let child = tables.edges.get(Self.edgeKey(0, first))
            guard child >= 0 else { continue }
            let rest = word[(b + cut)...]
            guard let second = knownWordAndForms(rest).first(where: { tables.edges.get(Self.edgeKey(child, $0)) >= 0 })
            else { continue }
            if found != nil { return nil }
            found = (first, second, cut)
        }
        return found.map { GluedWords(first: $0.0, second: $0.1, cut: $0.2) }
    }

    /// The one known word that `word` spells with its first letter lost, or its last lost or
    /// doubled (`atriumcitrate`, `Sorbitsiru`, `Cyclamatt`); nil when none or several do.
    func edgeLossWord(_ word: ArraySlice<UInt32>) -> Int32? {
        var found: Int32 = -1
        var several = false
        func consider(_ spelled: some Sequence<UInt32>) -> Bool {
            let w = tables.vocab.get(Token.hash(spelled))
            if w >= 0, w != found {
                several = found >= 0
                found = w
            }
            return several
        }
        _ = consider(word.dropLast())
        if !several { Self.forEachSpellingWithLetterAdded(to: word, atStart: false, consider) }
        if !several { Self.forEachSpellingWithLetterAdded(to: word, atStart: true, consider) }
        return found >= 0 && !several ? found : nil
    }

    /// Calls `body` with `letters` spelled with each capital A–Z put before it (`atStart`) or after
    /// it, until `body` returns true; not at all unless `letters` are capitals only.
    static func forEachSpellingWithLetterAdded<C: Collection<UInt32>>(to letters: C, atStart: Bool,
                                                                      _ body: ([UInt32]) -> Bool) {
        guard letters.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return }
        var spelled = atStart ? [0] + Array(letters) : Array(letters) + [0]
        let slot = atStart ? 0 : spelled.count - 1
        for added in UInt32(0x41)...UInt32(0x5A) {
            spelled[slot] = added
            if body(spelled) { return }
        }
    }

    /// Known words one plausible slip from `word` (no two-slip or merged-letter candidates).
    func oneSlipCandidates(_ word: ArraySlice<UInt32>, into found: inout [Int32], cache: inout FuzzyCache) {
        guard word.count >= Self.fuzzyMinLength - 1, word.count <= 40 else { return }
        let first = found.count
        _ = oneSlipWords(of: word, into: &found, since: first, cache: &cache, encode: { $0 })
        dropElementSwaps(word, &found, since: first)
    }

    /// Removes the candidates (ids, or `-(id + 1)` for two-slip ones) that would read `word`'s
    /// element as another (`EditDistance.swapsElement`: `kalsiumlaktat` is not `kaliumlaktat`).
    func dropElementSwaps(_ word: ArraySlice<UInt32>, _ found: inout [Int32], since first: Int) {
        guard found.count > first else { return }
        let observed = EditDistance.elements(in: word)
        guard observed != 0 else { return }
        let t = tables
        var k = first
        while k < found.count {
            let id = found[k] >= 0 ? found[k] : -found[k] - 1
            if EditDistance.swapsElement(t.word(id), observed: observed) { found.remove(at: k) } else { k += 1 }
        }
    }

    /// Appends (as `encode(id)`) the known words one plausible slip from `word`, not at its first
    /// or last letter, skipping those already appended since `since`; true once 8 are there.
    /// Edits at a word's first or last letter make other words (`pectinas` / `pectinase`,
    /// `carbonates` / `carbonated`, `cólico` / `fólico`), not OCR slips; the exceptions are a
    /// first or last letter OCR reads for another by shape (`EditDistance.isFirstLetterShapeSlip`,
    /// `isLastLetterShapeSlip`).
    func oneSlipWords(of word: ArraySlice<UInt32>, into found: inout [Int32], since first: Int,
                      cache: inout FuzzyCache, encode: (Int32) -> Int32) -> Bool {
        let t = tables
        var full = false
        forEachDeletionNeighbour(of: word, cache: &cache) { w in
            let k = t.word(w)
            if !found[first...].contains(encode(w)),
               EditDistance.isInternalEdit(k, word) ? EditDistance.withinOne(k, word) && EditDistance.isPlausibleSlip(k, word)
                   : EditDistance.isFirstLetterShapeSlip(k, word) || EditDistance.isLastLetterShapeSlip(k, word) {
                found.append(encode(w))
                if found.count - first >= 8 { full = true }
            }
            return full
        }
        return full
    }

    /// Calls `body` with every known word that shares a one-deletion hash with `word` (a
    /// superset of the words within one edit; `body` checks), until it returns true.
    func forEachDeletionNeighbour(of word: ArraySlice<UInt32>, cache: inout FuzzyCache, _ body: (Int32) -> Bool) {
        let t = tables
        cache.probes.removeAll(keepingCapacity: true)
        Self.deletionHashes(word, into: &cache.probes, suffix: &cache.suffix)
        for p in cache.probes {
            let b = Int(p >> t.deletionShift)
            let tag = UInt32(truncatingIfNeeded: p)
            var posting = Int(t.deletionStart[b])
            let end = Int(t.deletionStart[b + 1])
            while posting < end {
                defer { posting += 1 }
                if t.deletionTag[posting] == tag, body(t.deletionWord[posting]) { return }
            }
        }
    }

    /// Calls `body` with `word` spelled with one group of `mergeSlips` undone, for each place a
    /// group starts at letter `first` or later and ends by letter `end(group)`, and with the letter
    /// where the group ended; stops once `body` returns true.
    static func forEachMergeVariant(of word: ArraySlice<UInt32>, first: Int, end: ([UInt32]) -> Int,
                                    _ body: (_ variant: [UInt32], _ groupEnd: Int) -> Bool) {
        let b = word.startIndex
        var variant: [UInt32] = []
        for (from, to) in mergeSlips {
            var i = first
            while i + from.count <= end(from) {
                defer { i += 1 }
                guard word[b + i] == from[0], from.count == 1 || word[b + i + 1] == from[1] else { continue }
                variant.removeAll(keepingCapacity: true)
                variant.append(contentsOf: word[b..<(b + i)])
                variant.append(contentsOf: to)
                variant.append(contentsOf: word[(b + i + from.count)...])
                if body(variant, i + from.count) { return }
            }
        }
    }

    /// Shortest unknown word in which OCR may have merged or split letters.
    static let mergeSlipMinLength = 7

    /// The merged letters OCR reads at a word's end, as in the `-ium` of salts: `rn` for `m`.
    static let finalMergeSlip: [UInt32] = [0x52, 0x4E]

    /// Letter groups that OCR reads as one letter and back (`cl` as `d`, `rn` as `m`,
    /// `li` as `h`, `ii` as `u`, `vv` as `w`, `ri` as `n`): small print blurs the gap between two
    /// thin letters, or splits one wide letter. Both directions, folded to capitals.
    static let mergeSlips: [(from: [UInt32], to: [UInt32])] = {
        let pairs = [("CL", "D"), ("RN", "M"), ("LI", "H"), ("II", "U"), ("VV", "W"), ("RI", "N")]
        return pairs.flatMap { a, b -> [(from: [UInt32], to: [UInt32])] in
            let x = a.unicodeScalars.map(\.value), y = b.unicodeScalars.map(\.value)
            return [(x, y), (y, x)]
        }
    }()

    /// Known words that `word` spells once one merged or split letter group inside it is
    /// undone (one edit: `Natriumcydamat` is `natriumcyclamat` with `cl` read as `d`), or within
    /// one more plausible slip of that (two edits: `Natriumeydamat`, with `c` also read as `e`;
    /// read so on a real phone frame of the development set).
    /// Groups at the word's first or last letter are left alone, as for single edits.
    func mergeSlipCandidates(_ word: ArraySlice<UInt32>, into found: inout [Int32], cache: inout FuzzyCache) {
        let first = found.count
        let t = tables
        let n = word.count
        // `rn` read for a final `m` is the one group taken at a word's end (`Sodiurn`, `Calciurn`).
        Self.forEachMergeVariant(of: word, first: 1, end: { $0 == Self.finalMergeSlip ? n : n - 1 }) { variant, groupEnd in
            let exact = t.vocab.get(Token.hash(variant))
            if exact >= 0 {
                if !found[first...].contains(exact) { found.append(exact) }
            } else if groupEnd < n,
                      oneSlipWords(of: variant[...], into: &found, since: first, cache: &cache, encode: { -$0 - 1 }) {
                return true
            }
            return found.count - first >= 8
        }
        // At a word's start only `cl` read for `d` and `rn` for `m`, and only into a known word as it
        // stands (`Cliglyceride`, `rnagnesium`): no word of a label language starts so and means
        // the other.
        for (from, to) in Self.initialMergeSlips where word.count > from.count && word.prefix(from.count).elementsEqual(from) {
            let w = t.vocab.get(Token.hash(to + word.dropFirst(from.count)))
            if w >= 0, !found[first...].contains(w) { found.append(w) }
        }
    }

    /// The merged letters OCR reads at a word's start: `cl` for `d`, `rn` for `m`.
    static let initialMergeSlips: [(from: [UInt32], to: [UInt32])] = [([0x43, 0x4C], [0x44]), ([0x52, 0x4E], [0x4D])]
}
