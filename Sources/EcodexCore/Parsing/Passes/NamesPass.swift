extension ParseSession {
    /// Pass 3: names and class words over the words codes did not take.
    mutating func matchNames() {
        var stream: [NameIndex.StreamWord] = []
        stream.reserveCapacity(tokens.count)
        var barrier = true
        var joinedUntil = 0
        var compoundScratch = NameIndex.FuzzyCache(count: 0)
        for (k, t) in tokens.enumerated() where k >= joinedUntil {
            if consumed[k] { barrier = true; continue }
            // `Mono & Diglycerides` is `mono and diglycerides`.
            if t.kind == .punct, isAnd(k), case let id = index.id(ofWordHash: Self.andKey), id >= 0 {
                stream.append(.init(token: Int32(k), tokenEnd: Int32(k + 1), id: id, barrierBefore: barrier,
                                    length: 1, lowConfidence: false, fuzzyEligible: false,
                                    scalarStart: t.start, scalarEnd: t.end))
                barrier = false
                continue
            }
            if t.kind == .punct {
                if !NameIndex.isSoftPunct(t.key) && !Token.isInnerNumberPunct(tokens, k) { barrier = true }
                continue
            }
            if NameIndex.numberMarks.contains(t.key), k + 1 < tokens.count {
                var j = k + 1
                while j < tokens.count, tokens[j].kind == .punct, NameIndex.isSoftPunct(tokens[j].key) { j += 1 }
                if j < tokens.count, tokens[j].isDigits, !consumed[j] { continue }
            }
            // `Red Dye 40`, `Yellow Dye #5`: the word `dye` between a US colour word and its number.
            if t.key == Self.dyeKey, k > 0, tokens[k - 1].kind == .word, Self.usColourKeys.contains(tokens[k - 1].key) {
                var j = k + 1
                while j < tokens.count, tokens[j].kind == .punct ? NameIndex.isSoftPunct(tokens[j].key)
                    : NameIndex.numberMarks.contains(tokens[j].key) { j += 1 }
                if j < tokens.count, tokens[j].isDigits { continue }
            }
            // `Yellow6`, `YELLOWS`, `Red 4O`, `biue 1`: a US colour name as OCR reads it.
            if let colour = usColourNumber(at: k) {
                let n = colour.numberToken
                stream.append(.init(token: Int32(k), tokenEnd: Int32(k + 1), id: colour.colour, barrierBefore: barrier,
                                    length: t.end - t.start, lowConfidence: false, fuzzyEligible: false,
                                    scalarStart: t.start, scalarEnd: t.end))
                stream.append(.init(token: Int32(n), tokenEnd: Int32(n + 1), id: colour.number, barrierBefore: false,
                                    length: tokens[n].end - tokens[n].start, lowConfidence: false, fuzzyEligible: false,
                                    scalarStart: tokens[n].start, scalarEnd: tokens[n].end))
                barrier = false
                joinedUntil = n + 1
                continue
            }
            // `di-gliceridi`, `Citronen-säure`: one word split by a hyphen, read as one when only the
            // joined spelling is a known word; `leci thin`, `phos` / `phoric acid`: one split by a space
            // or at a line end whose hyphen OCR lost.
            if let (joined, last) = hyphenJoinedID(at: k).map({ ($0, k + 2) }) ?? spaceJoinedID(at: k).map({ ($0, k + 1) }) {
                stream.append(.init(token: Int32(k), tokenEnd: Int32(last + 1), id: joined, barrierBefore: barrier,
                                    length: tokens[last].end - t.start, lowConfidence: false, fuzzyEligible: false,
                                    scalarStart: t.start, scalarEnd: tokens[last].end))
                barrier = false
                joinedUntil = last + 1
                continue
            }
            if NameIndex.stopWords.contains(t.key) { continue }
            var low = false
            if let ocr, !ocr.isEmpty, let c = ocr.mean(over: byteRange(k..<(k + 1))) { low = c < 0.6 }
            var id = index.id(ofWordHash: t.key)
            if id < 0, t.hasDigit, !t.isDigits { id = digitSlipWordID(t) }
            let length = Int(t.end - t.start)
            var spelled = norm.scalars[Int(t.start)..<Int(t.end)]
            if id < 0, !t.hasDigit {
                for v in Self.calciumSpellings(spelled) {
                    let known = index.id(ofWordHash: Token.hash(v))
                    if known >= 0 || index.formIDs(v, own: -1).0 >= 0 { (id, spelled) = (known, v[...]); break }
                }
            }
            // A bracket OCR read as a letter or a digit glued to the word (`Iácido cítrico`,
            // `lphosphoric acidl`, `1Natriumcarbonat`): the word without it, when only that is known.
            var (scalarStart, scalarEnd) = (t.start, t.end)
            var plain = !t.hasDigit
            if id < 0, length >= Self.bracketSlipMinLength,
               Self.foldedGlyphs.contains(spelled.first!) || Self.foldedGlyphs.contains(spelled.last!),
               let (known, from, to) = bracketSlipWord(spelled, written: original(k..<(k + 1))) {
                (id, spelled, scalarStart, scalarEnd) = (known, norm.scalars[from..<to], Int32(from), Int32(to))
                plain = true
            }
            // Singular and plural are one word: `Sodium Citrate` finds `sodium citrates`.
            var forms = plain && spelled.count >= NameIndex.wordFormMinLength
                ? index.formIDs(spelled, own: id) : (-1, -1)
            var compound = false
            // A long word that lost its first or last letter, or read its last twice, at the print's
            // edge or under glare (`Säureregulator atriumcitrate`, `Feuchthaltemittel Sorbitsiru`):
            // the one known word it spells so, read only when nothing else is (`longestMatch`), and
            // asked before a compound's last part (`atriumcitrate` is no compound of `citrate`).
            var edgeLoss: Int32 = -1
            if id < 0, forms.0 < 0, plain, length >= Self.edgeLossMinLength, length <= 40,
               !WordsOfTheirOwn.keys.contains(t.key), let known = index.edgeLossWord(spelled) {
                edgeLoss = known
            }
            // Two words of a name read without the space between them (`potassiumcitrate`,
            // `phosphoricacid`): the two known words, when exactly one cut makes them; asked before
            // a compound's last part (`potassiumcitrate` is no compound of `citrate`).
            if id < 0, forms.0 < 0, plain, length >= Self.gluedNameMinLength,
               !WordsOfTheirOwn.keys.contains(t.key), let glued = index.gluedNameWords(spelled) {
                let cut = scalarStart + Int32(glued.cut)
                stream.append(.init(token: Int32(k), tokenEnd: Int32(k + 1), id: glued.first, barrierBefore: barrier,
                                    length: Int32(glued.cut), lowConfidence: low, fuzzyEligible: false,
                                    scalarStart: scalarStart, scalarEnd: cut))
                stream.append(.init(token: Int32(k), tokenEnd: Int32(k + 1), id: glued.second, barrierBefore: false,
                                    length: Int32(length - glued.cut), lowConfidence: low, fuzzyEligible: false,
                                    scalarStart: cut, scalarEnd: scalarEnd))
                barrier = false
                continue
            }
            if id < 0, forms.0 < 0, edgeLoss < 0, !t.hasDigit, let part = compoundTail(t, scratch: &compoundScratch) {
                (id, forms, compound) = (part.id, part.forms, true)
            }
            let eligible = id < 0 && forms.0 < 0 && !t.hasDigit && length <= 40
                && (length >= NameIndex.fuzzyMinLength || (low && length >= NameIndex.fuzzyMinLength - 1))
                && !WordsOfTheirOwn.keys.contains(t.key)
            stream.append(.init(token: Int32(k), tokenEnd: Int32(k + 1), id: id, forms: forms, barrierBefore: barrier,
                                length: Int32(length), lowConfidence: low, fuzzyEligible: eligible,
                                scalarStart: scalarStart, scalarEnd: scalarEnd, compound: compound,
                                lineStart: id < 0 && forms.0 < 0 && norm.startsLine(t.start), edgeLoss: edgeLoss))
            barrier = false
        }
        var fuzzyCache = NameIndex.FuzzyCache(count: stream.count)
        // Unsafe views keep the recursive trie walk free of retain/release traffic; so does a local
        // index: read through the mutated `self` inside the closure, it was copied for every word.
        let index = self.index
        stream.withUnsafeBufferPointer { streamBuffer in
            norm.scalars.withUnsafeBufferPointer { scalarBuffer in
                var p = 0
                while p < streamBuffer.count {
                    guard var m = index.longestMatch(streamBuffer, at: p, scalars: scalarBuffer, cache: &fuzzyCache) else {
                        p += 1
                        continue
                    }
                    // A name read across a full stop (`ASPARTAME. ACÉSULFAME-K` as their salt E962) is
                    // two when the words before the stop are a name of their own that needs no context;
                    // OCR's stray stop inside one name (`CARAMEL. COLOR`) leaves it whole.
                    if let stop = (m.startWord + 1..<m.endWord).first(where: {
                        IngredientStructure.endsSentence(tokens, Int(streamBuffer[$0].token) - 1) }),
                       let before = index.longestMatch(UnsafeBufferPointer(rebasing: streamBuffer[..<stop]), at: p,
                                                       scalars: scalarBuffer, cache: &fuzzyCache),
                       before.endWord == stop, before.target.code != nil, !before.target.contextOnly {
                        m = before
                    }
                    let range = Int(streamBuffer[m.startWord].token)..<Int(streamBuffer[m.endWord - 1].tokenEnd)
                    // A word read by its edge loss counts as a compound's last part does.
                    let viaCompound = m.edgeLoss || (m.startWord..<m.endWord).contains { streamBuffer[$0].compound }
                    // Compounds name additives by their source; a class word read in the tail of an
                    // unknown word (`lukcorantes` as Portuguese `corantes`) is more likely a slip.
                    if !viaCompound, !negated[range.lowerBound], m.target.function != nil || m.target.nutrient {
                        let weak = m.edits > 0 && weakClassWord(range)
                        structure.noteClass(at: range, function: m.target.function, nutrient: m.target.nutrient, weak: weak)
                        classHits.append(ClassHit(tokens: range, function: m.target.function, nutrient: m.target.nutrient, weak: weak))
                    }
                    if let code = m.target.code {
                        if let d = distributed(streamBuffer, before: m, index: index, scalars: scalarBuffer) {
                            // The earlier word may have matched on its own (`sodium`): the shared name replaces it.
                            if let last = nameHits.last, last.tokens == d.tokens { nameHits.removeLast() }
                            nameHits.append(d)
                        }
                        var c = Candidate(code: code, tokens: range, kind: m.edits > 0 ? .fuzzy : .name,
                                          edits: m.edits, contextOnly: m.target.contextOnly, isCode: false)
                        c.compound = viaCompound
                        nameHits.append(c)
                    }
                    p = m.endWord
                    if m.target.code != nil, let d = distributed(streamBuffer, after: m, index: index, scalars: scalarBuffer) {
                        nameHits.append(d)
                        p = m.endWord + 2
                    }
                }
            }
        }
    }
}
