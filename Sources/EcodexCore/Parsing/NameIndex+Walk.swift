/// The trie walk of `NameIndex`: the longest name at a stream position, word by word, with
/// the slips a name may carry within its edit budget.
extension NameIndex {
    /// The longest key that starts at stream word `start`.
    func longestMatch(_ stream: UnsafeBufferPointer<StreamWord>, at start: Int, scalars: UnsafeBufferPointer<UInt32>,
                      cache: inout FuzzyCache) -> Match? {
        let w = stream[start]
        // Most words start no name: reject them before any search.
        if w.id >= 0 || w.forms.0 >= 0 {
            // A known word that starts no name may still be one that lost its last letter (`walk`).
            if !startsKey(w.id), !startsKey(w.forms.0), !startsKey(w.forms.1),
               w.id < 0 || w.compound || w.length < Int32(Self.lastLetterLostFirstWordMinLength)
                || lastLetterIndelWords(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], after: 0).isEmpty {
                return nil
            }
        } else if !w.fuzzyEligible && (w.compound || w.length < 3) {
            return nil
        }
        var best: Match?
        var steps = 0
        walk(stream, start: start, pos: start, node: 0, edits: 0, low: false, scalars: scalars, cache: &cache,
             best: &best, steps: &steps)
        if best == nil, w.edgeLoss >= 0 {
            let child = tables.edges.get(Self.edgeKey(0, w.edgeLoss))
            if child >= 0, tables.terminal[Int(child)] >= 0 {
                best = Match(startWord: start, endWord: start + 1, target: tables.target(tables.terminal[Int(child)]),
                             edits: 1, edgeLoss: true)
            }
        }
        return best
    }

    @inline(__always)
    func startsKey(_ word: Int32) -> Bool {
        word >= 0 && tables.edges.get(Self.edgeKey(0, word)) >= 0
    }

    /// Depth-first over the trie; depth is bounded by the longest name, branching by the candidate cap.
    func walk(_ stream: UnsafeBufferPointer<StreamWord>, start: Int, pos: Int, node: Int32, edits: Int,
              low: Bool, scalars: UnsafeBufferPointer<UInt32>, cache: inout FuzzyCache, best: inout Match?,
              steps: inout Int) {
        steps += 1
        guard steps <= 256, pos < stream.count else { return }
        let w = stream[pos]
        if pos > start && w.barrierBefore { return }
        let lowHere = low || w.lowConfidence
        // Inside a name, shorter words may change number too (`acides` / `acide`); looked up only
        // here, on the path of a match already begun, so ordinary words never pay for it.
        var inner: (Int32, Int32) = (-1, -1)
        if pos > start, w.tokenEnd == w.token + 1, w.scalarEnd - w.scalarStart >= Int32(Self.innerWordFormMinLength),
           w.scalarEnd - w.scalarStart < Int32(Self.wordFormMinLength) + 1 {
            inner = formIDs(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], own: w.id,
                            minLength: Self.innerWordFormMinLength)
        }
        if w.id >= 0 || w.forms.0 >= 0 || inner.0 >= 0 {
            var continues = false
            for word in [w.id, w.forms.0, w.forms.1, inner.0, inner.1] where word >= 0 {
                if (word == inner.0 || word == inner.1) && (word == w.forms.0 || word == w.forms.1) { continue }
                continues = continues || tables.edges.get(Self.edgeKey(node, word)) >= 0
                follow(stream, start: start, pos: pos, node: node, word: word, edits: edits, low: lowHere,
                       scalars: scalars, cache: &cache, best: &best, steps: &steps)
            }
            // A known word never changes, but for its last letter inside a name begun on the words
            // before, when no form of it continues the name: `sodium benzoat`, `sodium propionat`
            // (German and Romanian spell the anion so; the line's end cut the `e`).
            if w.id >= 0, !continues, pos > start, !w.compound, edits < 3, w.length >= Int32(Self.fuzzyMinLength) {
                for word in lastLetterIndelWords(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], after: node) {
                    follow(stream, start: start, pos: pos, node: node, word: word, edits: edits + 1, low: lowHere,
                           scalars: scalars, cache: &cache, best: &best, steps: &steps)
                }
            }
            // So may a name's first word when the rest of the name is read whole and long
            // (`firstWordSlipRestLetters`): `CALCIU CHLORIDE`, `sodiu ascorbate` (Romanian spells
            // the element so, last in its names). An exact reading of a longer name still wins.
            if w.id >= 0, pos == start, !w.compound, w.length >= Int32(Self.lastLetterLostFirstWordMinLength) {
                for word in lastLetterIndelWords(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], after: 0) {
                    firstWordSlip(stream, start: start, word: word, restLetters: Self.firstWordSlipRestLetters,
                                  low: lowHere, scalars: scalars, cache: &cache, best: &best, steps: &steps)
                }
            }
            // An unknown word that is only another number of a known word (`citriqu`, as if the
            // singular of `citriques`) may still be a slip of the word that continues the name,
            // when no form of it does (below).
            if w.id >= 0 || continues || pos == start { return }
        }
        // Inside a name begun on the words before, a word's first letter may be lost: at the edge of
        // the print where a line begins (a crop edge, the curve of a pack: `DIPOTASSIUM` /
        // `HOSPHATE`, `MONO-` / `ND DIGLYCERIDES`), or inside a line under glare or blur for a
        // word of `lostFirstLetterInLineMinLength` letters or more (`SOY ECITHIN`). One edit, for
        // unknown words only (a known word never changes), and only when every letter that
        // continues the name leads to one additive (`sodium` / `itrate` may be citrate or nitrate:
        // neither; `ND` may be `AND` or `UND`: both mean E471).
        if pos > start, w.lineStart || w.length >= Int32(Self.lostFirstLetterInLineMinLength), !w.compound,
           edits < 3, w.length >= 2, w.length < 40 {
            var agreed: Match?
            var conflict = false
            for word in lostFirstLetterWords(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], after: node) {
                var found: Match?
                follow(stream, start: start, pos: pos, node: node, word: word, edits: edits + 1, low: lowHere,
                       scalars: scalars, cache: &cache, best: &found, steps: &steps)
                guard let f = found else { continue }
                if let a = agreed, a.target.code != f.target.code || a.target.function != f.target.function {
                    conflict = true
                    break
                }
                if f.beats(agreed) { agreed = f }
            }
            if !conflict, let m = agreed, m.beats(best) { best = m }
        }
        // Inside a name begun on the words before, a link word glued to the next word of the
        // name, its space lost (`acétate desodium`, `dioxyde decarbone`, `nitrite desodium`): the
        // rest, when it is a known word (or its other number) that continues the name.
        if pos > start, !w.compound, w.length >= 6, w.length < 40 {
            let letters = scalars[Int(w.scalarStart)..<Int(w.scalarEnd)]
            for link in Self.gluedLinkWords where letters.starts(with: link) && letters.count - link.count >= 4 {
                let rest = letters.dropFirst(link.count)
                for word in knownWordAndForms(rest) {
                    follow(stream, start: start, pos: pos, node: node, word: word, edits: edits, low: lowHere,
                           scalars: scalars, cache: &cache, best: &best, steps: &steps)
                }
            }
        }
        // Inside a name begun on the words before, a word read with a slip at its first or last
        // letter or with merged thin letters, or a short word (4 letters) with any one slip:
        // `farina di seml di carrube`, `Locust Bean Gurn`.
        // Alone such edits make other words; here only a word that continues the name counts,
        // and the whole name's edit budget still holds.
        if pos > start, !w.compound, edits < 3, w.length >= Int32(Self.fuzzyMinLength - 1) {
            let letters = scalars[Int(w.scalarStart)..<Int(w.scalarEnd)]
            for word in innerNameSlipWords(letters, after: node, short: !w.fuzzyEligible, bothEnds: false, cache: &cache) {
                follow(stream, start: start, pos: pos, node: node, word: word, edits: edits + 1, low: lowHere,
                       scalars: scalars, cache: &cache, best: &best, steps: &steps)
            }
        }
        // The first word of a name of several words, read with a slip at its first or last letter,
        // with merged thin letters, or with a letter lost or doubled at an end (`MOND. AND
        // DIGLYCERIDES`, `cide citrique`). Alone such edits make other words (`mono` / `mond`), so
        // here the rest of the name must be read without a slip and hold a long word's letters,
        // as a slip in a long word counts.
        // A long first word that only lost its last letter names its word by itself (`xantha gum`,
        // `carnaub wax`, `potassiu sorbate`): any rest read whole vouches for it.
        if pos == start, !w.compound, w.length >= 3 {
            let letters = scalars[Int(w.scalarStart)..<Int(w.scalarEnd)]
            for word in innerNameSlipWords(letters, after: 0, short: false, bothEnds: true, cache: &cache) {
                let known = tables.word(word)
                let lostLast = letters.count >= Self.lastLetterLostFirstWordMinLength && known.count == letters.count + 1
                    && zip(letters, known).allSatisfy { $0 == $1 }
                firstWordSlip(stream, start: start, word: word,
                              restLetters: lostLast ? 1 : Self.firstWordSlipRestLetters,
                              low: lowHere, scalars: scalars, cache: &cache, best: &best, steps: &steps)
            }
        }
        guard w.fuzzyEligible, edits < 3 else { return }
        if cache.start[pos] < 0 {
            cache.start[pos] = Int32(cache.pool.count)
            var pool = cache.pool
            cache.pool = []
            fuzzyCandidates(Array(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)])[...], into: &pool, cache: &cache)
            cache.pool = pool
            cache.end[pos] = Int32(cache.pool.count)
        }
        var c = Int(cache.start[pos])
        while c < Int(cache.end[pos]) {
            let candidate = cache.pool[c]
            follow(stream, start: start, pos: pos, node: node, word: candidate >= 0 ? candidate : -candidate - 1,
                   edits: edits + (candidate >= 0 ? 1 : 2), low: lowHere,
                   scalars: scalars, cache: &cache, best: &best, steps: &steps)
            c += 1
        }
    }

    /// Reads the name that starts at `start` with its first word taken as the known `word` (one
    /// edit), when the rest of the name is read without a slip and holds `restLetters` letters or more.
    func firstWordSlip(_ stream: UnsafeBufferPointer<StreamWord>, start: Int, word: Int32, restLetters: Int,
                       low: Bool, scalars: UnsafeBufferPointer<UInt32>, cache: inout FuzzyCache,
                       best: inout Match?, steps: inout Int) {
        var found: Match?
        follow(stream, start: start, pos: start, node: 0, word: word, edits: 1, low: low,
               scalars: scalars, cache: &cache, best: &found, steps: &steps)
        guard let f = found, f.edits == 1, f.endWord - start >= 2 else { return }
        let rest = stream[(start + 1)..<f.endWord].reduce(0) { $0 + Int($1.length) }
        if rest >= restLetters, f.beats(best) { best = f }
    }

    /// The known words that continue the name at trie `node` and that `letters` spells with one
    /// slip at its first or last letter (`EditDistance.isEndShapeSlip`), with one merged or split
    /// letter group (`mergeSlips`, at its ends too), with a letter lost or doubled at its end (five
    /// letters left) or, when `bothEnds`, at either end (three left; `isEdgeIndel`: inside a line,
    /// a word that lost its first letter is more often another word), or, when `short` (a
    /// word too short for fuzzy matching on its own), with any one plausible slip.
    func innerNameSlipWords(_ letters: Slice<UnsafeBufferPointer<UInt32>>, after node: Int32, short: Bool,
                            bothEnds: Bool, cache: inout FuzzyCache) -> [Int32] {
        guard letters.count <= 40 else { return [] }
        let t = tables
        let word = ArraySlice(letters)
        var words: [Int32] = []
        var observed: UInt8?  // the word's element stems, scanned for once a word continues the name
        func consider(_ w: Int32) -> Bool {
            guard w >= 0, !words.contains(w), t.edges.get(Self.edgeKey(node, w)) >= 0 else { return false }
            if observed == nil { observed = EditDistance.elements(in: word) }
            return !EditDistance.swapsElement(t.word(w), observed: observed!)
        }
        forEachDeletionNeighbour(of: word, cache: &cache) { w in
            guard consider(w) else { return false }
            let k = t.word(w)
            if EditDistance.isEndShapeSlip(k, word) || (short && EditDistance.isInternalEdit(k, word)
                && EditDistance.withinOne(k, word) && EditDistance.isPlausibleSlip(k, word))
                || EditDistance.isEdgeIndel(k, word, firstToo: bothEnds, minLength: bothEnds ? 3 : 5) {
                words.append(w)
            }
            return false
        }
        // Merged or split thin letters anywhere in the word (`Locust Bean Gurn`).
        Self.forEachMergeVariant(of: word, first: 0, end: { _ in word.count }) { variant, _ in
            let w = t.vocab.get(Token.hash(variant))
            if consider(w) { words.append(w) }
            return false
        }
        return words
    }

    /// The known words that `letters` spells with its last letter lost or doubled, and that
    /// continue the name at trie `node`: `benzoat` for `benzoate`.
    func lastLetterIndelWords(_ letters: Slice<UnsafeBufferPointer<UInt32>>, after node: Int32) -> [Int32] {
        guard letters.count < 40, letters.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return [] }
        var words: [Int32] = []
        func consider(_ spelled: some Sequence<UInt32>) -> Bool {
            let w = tables.vocab.get(Token.hash(spelled))
            if w >= 0, !words.contains(w), tables.edges.get(Self.edgeKey(node, w)) >= 0 { words.append(w) }
            return false
        }
        _ = consider(letters.dropLast())
        Self.forEachSpellingWithLetterAdded(to: letters, atStart: false, consider)
        return words
    }

    /// The known words (or their other number, `citrate` / `citrates`) that `letters` spells with
    /// a letter put before it and that continue the name at trie `node`.
    func lostFirstLetterWords(_ letters: Slice<UnsafeBufferPointer<UInt32>>, after node: Int32) -> [Int32] {
        var words: [Int32] = []
        Self.forEachSpellingWithLetterAdded(to: letters, atStart: true) { spelled in
            let own = tables.vocab.get(Token.hash(spelled))
            let forms = spelled.count >= Self.innerWordFormMinLength
                ? formIDs(spelled, own: own, minLength: Self.innerWordFormMinLength) : (-1, -1)
            for word in [own, forms.0, forms.1] where word >= 0 && tables.edges.get(Self.edgeKey(node, word)) >= 0 {
                if !words.contains(word) { words.append(word) }
            }
            return false
        }
        return words
    }

    func follow(_ stream: UnsafeBufferPointer<StreamWord>, start: Int, pos: Int, node: Int32, word: Int32,
                edits: Int, low: Bool, scalars: UnsafeBufferPointer<UInt32>, cache: inout FuzzyCache,
                best: inout Match?, steps: inout Int) {
        let child = tables.edges.get(Self.edgeKey(node, word))
        guard child >= 0 else { return }
        let t = tables.terminal[Int(child)]
        if t >= 0 {
            let target = tables.target(t)
            if edits <= Self.editBudget(chars: target.chars, words: target.words, lowConfidence: low) {
                let m = Match(startWord: start, endWord: pos + 1, target: target, edits: edits)
                if m.beats(best) { best = m }
            }
        }
        walk(stream, start: start, pos: pos + 1, node: child, edits: edits, low: low, scalars: scalars,
             cache: &cache, best: &best, steps: &steps)
    }
}
