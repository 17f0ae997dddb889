/// One run of the parser over one text: the state its passes share.
///
/// `IngredientParser` owns the name index and known codes; a session owns everything
/// derived from the text (normalised scalars, tokens, structure, hits) and
/// runs the passes in order. See `IngredientParser` for why that order.
struct ParseSession {
    /// A mention before merging and context checks.
    struct Candidate {
        var code: ECode
        var tokens: Range<Int>
        var kind: MatchKind
        var edits = 0
        var contextOnly = false
        var needsContext = false
        var isCode: Bool
        /// Read as the last part of a compound word (`Sonnenblumenlecithine`): counts only under
        /// a class word of the additive's own function, or beside a code.
        var compound = false
        /// A code spelled in single digits, or broken over two lines, from unsure words
        /// (`spelledOutUnsure`, `brokenOverLinesUnsure`): counts only under a class word of its own
        /// function (when the store knows it), or beside a code.
        var spelledOut = false
        /// All the words that make up a name shared with a neighbour (`citrates de potassium et
        /// de sodium` for `sodium`), when more than `tokens`.
        var phrase: Range<Int>?

        /// The words that name the additive.
        var nameTokens: Range<Int> { phrase ?? tokens }
    }

    /// Words that join additives in a list (`lutein and tartrazine`).
    static let conjunctions: [UInt64] =
        ["AND", "UND", "ET", "Y", "E", "EN", "OU", "OR", "ODER", "O", "I", "JA", "EA", "&", "OF", "DE", "D"]
            .map(Token.hash)

    /// `and` and `or` in the label languages, without the prepositions `conjunctions` also holds.
    static let andWords: [UInt64] = ["AND", "UND", "ET", "Y", "E", "EN", "OU", "OR", "ODER", "O", "I", "JA", "OG", "ES"]
        .map(Token.hash)

    private static let andKey = Token.hash("AND")

    /// Whether token `k` joins two things as `and`/`or` does: one of `andWords`, or `&` set
    /// apart by spaces (`Mono & Diglycerides`; `FD&C` is a name's own sign).
    func isAnd(_ k: Int) -> Bool {
        let t = tokens[k]
        if t.kind == .word { return Self.andWords.contains(t.key) }
        return t.key == 0x26 && t.spaceBefore && k + 1 < tokens.count && tokens[k + 1].spaceBefore
    }

    let index: NameIndex
    let norm: NormalizedText
    let tokens: [Token]
    let bytes: [UInt8]
    let ocr: WordConfidence?
    let reader: CodeReader
    let functions: [ECode: [String]]
    var consumed: [Bool]
    var codeHits: [CodeReader.Hit] = []
    var nameHits: [Candidate] = []
    /// Every class word read, in order: the structure is rebuilt with them when one must split an item.
    var classHits: [(tokens: Range<Int>, function: String?, nutrient: Bool, weak: Bool)] = []
    /// Tokens in a negation's scope (`ohne`, `sans`, `free from`): see `Negation`.
    var negated: [Bool] = []
    var structure: IngredientStructure
    var result = ParseResult()
    private var unmatchedSeen = Set<String>()

    init(text: String, words: [OCRWord]?, index: NameIndex, knownCodes: Set<ECode>, functions: [ECode: [String]] = [:]) {
        self.index = index
        self.functions = functions
        norm = NormalizedText(text)
        tokens = Token.tokenize(norm)
        bytes = Array(text.utf8)
        ocr = words.map { [bytes] in WordConfidence(bytes: bytes, words: $0) }
        reader = CodeReader(text: norm, tokens: tokens, knownCodes: knownCodes)
        consumed = [Bool](repeating: false, count: tokens.count)
        structure = IngredientStructure(tokens: tokens)
    }

    /// Runs every pass and returns the result.
    mutating func run() -> ParseResult {
        readPrefixedCodes()
        negated = Negation.scopes(tokens: tokens, structure: structure, consumed: consumed)
        matchNames()
        resolveStructure()
        readBareNumbers()
        emitMentions(merge(candidates()))
        addAspartameFromStatement()
        findNamedSensitivities()
        return result
    }

    /// Pass 7: sensitivities the label names outside every additive's words (see `SensitivityWords`).
    private mutating func findNamedSensitivities() {
        let spans = result.mentions.map(\.span)
        result.named = SensitivityWords.find(tokens: tokens, negated: negated,
                                             taken: { k in spans.contains { $0.overlaps(byteRange(k..<(k + 1))) } },
                                             original: original)
    }

    private static let aspartame = ECode(number: 951)
    private static let aspartameAcesulfameSalt = ECode(number: 962)

    /// Pass 6: the phenylalanine statement stands for aspartame when no aspartame was read
    /// (see `PhenylalanineStatement`).
    private mutating func addAspartameFromStatement() {
        guard reader.knownCodes.contains(Self.aspartame),
              !result.mentions.contains(where: { $0.code.lineage.contains(Self.aspartame)
                  || $0.code.lineage.contains(Self.aspartameAcesulfameSalt) }),
              let r = PhenylalanineStatement.find(tokens: tokens, scalars: norm.scalars, negated: negated) else { return }
        let span = byteRange(r)
        var confidence = 0.9
        if let ocr, let mean = ocr.mean(over: span) { confidence *= mean }
        result.mentions.append(Mention(code: Self.aspartame, matchedText: [original(r)], span: span, kind: .name,
                                       confidence: confidence, function: "sweetener"))
    }

    /// UTF-8 range in the original text of a token range.
    func byteRange(_ r: Range<Int>) -> Range<Int> {
        let a = Int(norm.starts[Int(tokens[r.lowerBound].start)])
        let b = Int(norm.ends[Int(tokens[r.upperBound - 1].end) - 1])
        return a..<max(a, b)
    }

    /// The original text of a token range, without surrounding spaces.
    func original(_ r: Range<Int>) -> String {
        var span = byteRange(r)
        // Trim ASCII spaces here: cheaper than trimming Characters later.
        while !span.isEmpty, bytes[span.lowerBound] <= 0x20 { span = (span.lowerBound + 1)..<span.upperBound }
        while !span.isEmpty, bytes[span.upperBound - 1] <= 0x20 { span = span.lowerBound..<(span.upperBound - 1) }
        return String(decoding: bytes[span], as: UTF8.self)
    }

    func item(_ token: Int) -> IngredientStructure.Item? {
        let k = structure.itemOfToken[token]
        return k >= 0 ? structure.items[Int(k)] : nil
    }

    /// Pass 2: prefixed codes, which need no context.
    private mutating func readPrefixedCodes() {
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            let lead = norm.scalars[Int(t.start)]
            // A code token has a digit (`E330`, `E2l1`, `F129`) or is a bare prefix (`E`, `INS`, `SIN`,
            // and `lNS` or `1NS` read for `INS`).
            let candidate = t.kind == .word
                ? ((lead == 0x45 || lead == 0x49 || lead == 0x53 || lead == 0x46 || lead == 0x43)
                    && (t.hasDigit || t.length == 1 || t.length == 3)
                    || CodeReader.isINSSlip(norm.scalars[Int(t.start)..<Int(t.end)])
                    || CodeReader.isBracketSlipE(norm.scalars[Int(t.start)..<Int(t.end)]) && (t.hasDigit || t.length == 2))
                : (t.key == 0xA3 || t.key == 0x20AC)
            if candidate {
                let hits = reader.readPrefixed(at: i)
                if let last = hits.last {
                    for h in hits { for k in h.tokens { consumed[k] = true } }
                    codeHits += hits
                    i = max(i + 1, last.tokens.upperBound)
                    continue
                }
            }
            i += 1
        }
    }

    /// Pass 3: names and class words over the words codes did not take.
    private mutating func matchNames() {
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
                        classHits.append((range, m.target.function, m.target.nutrient, weak))
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

    /// A name shared by two words joined by `and`, read after a name that ends in the first:
    /// `carbonates acides d'ammonium et de sodium` also names `carbonates acides de sodium`,
    /// `citrato di sodio e di potassio` also `citrato di potassio` (the prepositions are stop words).
    /// The other word must complete a known name on its own, with no slip.
    private func distributed(_ stream: UnsafeBufferPointer<NameIndex.StreamWord>, after m: NameIndex.Match,
                             index: NameIndex, scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        let e = m.endWord
        guard m.endWord - m.startWord >= 2, e + 1 < stream.count, !stream[e].barrierBefore,
              !stream[e + 1].barrierBefore, isAnd(Int(stream[e].token)) else { return nil }
        var words = Array(stream[m.startWord..<(e - 1)])
        words.append(stream[e + 1])
        var c = sharedName(words, replacing: words.count - 1, not: m.target.code, index: index, scalars: scalars)
        c?.phrase = Int(stream[m.startWord].token)..<Int(stream[e + 1].tokenEnd)
        return c
    }

    /// The same with the shared word at the end, English and German style, read before a name
    /// that ends in it: `sodium and potassium citrates` also names `sodium citrates`.
    private func distributed(_ stream: UnsafeBufferPointer<NameIndex.StreamWord>, before m: NameIndex.Match,
                             index: NameIndex, scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        let s = m.startWord
        guard m.endWord - s >= 2, s >= 2, !stream[s].barrierBefore, !stream[s - 1].barrierBefore,
              isAnd(Int(stream[s - 1].token)) else { return nil }
        // The word must not end a longer name found before (`lactic acid and …`).
        let first = Int(stream[s - 2].token)
        if let last = nameHits.last, last.tokens.contains(first), last.tokens != first..<Int(stream[s - 2].tokenEnd) {
            return nil
        }
        var words = [stream[s - 2]]
        words += stream[(s + 1)..<m.endWord]
        var c = sharedName(words, replacing: 0, not: m.target.code, index: index, scalars: scalars)
        c?.phrase = Int(stream[s - 2].token)..<Int(stream[m.endWord - 1].tokenEnd)
        return c
    }

    /// A candidate for `words` when they are exactly one known name other than `code`, its tokens
    /// those of the word at `replacing`.
    private func sharedName(_ words: [NameIndex.StreamWord], replacing r: Int, not code: ECode?, index: NameIndex,
                            scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        var words = words
        for k in words.indices {
            words[k].barrierBefore = false
            words[k].fuzzyEligible = false
        }
        var cache = NameIndex.FuzzyCache(count: words.count)
        guard let d = words.withUnsafeBufferPointer({ index.longestMatch($0, at: 0, scalars: scalars, cache: &cache) }),
              d.endWord == words.count, d.edits == 0, let found = d.target.code, found != code else { return nil }
        let w = words[r]
        return Candidate(code: found, tokens: Int(w.token)..<Int(w.tokenEnd), kind: .name,
                         contextOnly: d.target.contextOnly, isCode: false)
    }

    /// Shortest word, as read, that may have lost or doubled a letter at its edge (`stream`).
    static let edgeLossMinLength = 8

    /// Shortest word read as two words of a name glued together (`stream`).
    static let gluedNameMinLength = 8

    /// Shortest compound word read by its last part, and the shortest part and head it may have.
    static let compoundMinLength = 10
    static let compoundTailMinLength = 6
    static let compoundHeadMinLength = 3
    /// Shortest last part of a compound word that may carry a slip.
    static let compoundSlipTailMinLength = 8

    /// Words that end in an additive's name but name another substance (folded, matched as a
    /// prefix so endings and plurals count): `Trägerstoff: Maltodextrin` is no dextrin (E1400).
    static let compoundsOfOtherSubstances: [[UInt32]] = ["MALTODEXTRIN", "CYCLODEXTRIN", "AMYLOPEKTIN", "AMYLOPECTIN",
                                                         "POLYCARBONAT", "NITROCELLULOSE", "NITROGLYCERIN"]
        .map { $0.unicodeScalars.map(\.value) }

    /// German and Dutch write a source and an additive as one word: `Sonnenblumenlecithine`,
    /// `Rapslecithin`, `Apfelpektin`, `zonnebloemlecithine`. An unknown long word within no slip of a known
    /// word, whose last part (six letters or more) is a known word or one of its forms, is
    /// read as that part: the longest such part wins. The mention it makes counts only under a
    /// class word of its own function (`Emulgator Sonnenblumenlecithine`) or beside a code.
    /// Checked against the German and Dutch word lists of Tesseract's models (58,000 and
    /// 339,000 words): the other compounds they hold (`Polycarbonat`, `Amylopectine`) are kept
    /// out by that class word, or listed in `compoundsOfOtherSubstances`.
    private func compoundTail(_ t: Token, scratch: inout NameIndex.FuzzyCache) -> (id: Int32, forms: (Int32, Int32))? {
        let length = Int(t.end - t.start)
        guard length >= Self.compoundMinLength, length <= 40 else { return nil }
        let word = norm.scalars[Int(t.start)..<Int(t.end)]
        if Self.compoundsOfOtherSubstances.contains(where: { word.starts(with: $0) }) { return nil }
        // `fenilalanina` is phenylalanine (the aspartame statement), not `alanina` (E639) after a head.
        let letters = Array(word)
        if PhenylalanineStatement.stems.contains(where: { PhenylalanineStatement.holds(letters, $0) }) { return nil }
        var cut = word.startIndex + Self.compoundHeadMinLength
        while word.endIndex - cut >= Self.compoundTailMinLength {
            let tail = word[cut...]
            let id = index.id(ofWordHash: Token.hash(tail))
            let forms = index.formIDs(tail, own: id)
            if id >= 0 || forms.0 >= 0 {
                // A slip of a known word (`Säuereregulator`) is read as that word, not by its last
                // part; asked only here, as most long unknown words have no known last part.
                var near: [Int32] = []
                index.fuzzyCandidates(word, into: &near, cache: &scratch)
                return near.isEmpty ? (id, forms) : nil
            }
            cut += 1
        }
        // No known last part: one read with a slip (`Sonnenblumenlecithim`, `Sojalecthin`), a known
        // word of `compoundSlipTailMinLength` letters or more, when the whole word is no slip of a known word.
        cut = word.startIndex + Self.compoundHeadMinLength
        var near: [Int32] = []
        while word.endIndex - cut >= Self.compoundSlipTailMinLength - 1 {
            near.removeAll(keepingCapacity: true)
            index.oneSlipCandidates(word[cut...], into: &near, cache: &scratch)
            near.removeAll { index.tables.word($0).count < Self.compoundSlipTailMinLength }
            if near.count == 1 {
                var whole: [Int32] = []
                index.fuzzyCandidates(word, into: &whole, cache: &scratch)
                return whole.isEmpty ? (near[0], (-1, -1)) : nil
            }
            if near.count > 1 { return nil }
            cut += 1
        }
        return nil
    }

    /// Digits OCR reads for letters of the same shape inside a word (`S0DIUM`, `POLYS0RBATE`, `C1TRIC`).
    private static let digitLetters: [UInt32: [UInt32]] = [0x30: [0x4F], 0x31: [0x49, 0x4C], 0x35: [0x53], 0x38: [0x42]]

    /// German `Kalzium` and Norwegian `kalsium` (one letter from `kalium`, potassium) spelled
    /// as the Swedish and the German or Danish names spell calcium: `kalsiumlaktat` →
    /// `KALCIUMLAKTAT`, `Kalziumcarbonat` → `CALCIUMCARBONAT`. Empty when the word holds
    /// neither spelling.
    private static func calciumSpellings(_ word: ArraySlice<UInt32>) -> [[UInt32]] {
        let n = word.count, b = word.startIndex
        guard n >= 7 else { return [] }
        for i in 0...(n - 5) where word[b + i] == 0x4B && word[b + i + 1] == 0x41 && word[b + i + 2] == 0x4C
            && (word[b + i + 3] == 0x5A || word[b + i + 3] == 0x53) && word[b + i + 4] == 0x49 {
            var v = Array(word)
            v[i + 3] = 0x43  // KALZI, KALSI -> KALCI
            var c = v
            c[i] = 0x43  // -> CALCI
            return [v, c]
        }
        return []
    }

    /// Shortest word, bracket glyph included, whose glyph is taken off: five letters stay
    /// (`lagar` is no `agar`).
    static let bracketSlipMinLength = 6
    /// The bracket glyphs folded (`I`, `L`, `1`): only a word that starts or ends so is looked at as written.
    static let foldedGlyphs: [UInt32] = [0x49, 0x4C, 0x31]

    /// The known word that `word` (`written` so) spells without a bracket that OCR read as a glyph
    /// at its start or end (`Iácido`, `lphosphoric`, `1Natriumcarbonat`, `kaliumsorbatI`), with that
    /// word's scalar range; nil when neither or both ends spell one. The glyphs: `1`; a small `l`,
    /// but not after a final `o` (`butanol` is no `butano`: `-ol` names alcohols); a capital `I`
    /// only in a word with small letters (`COLORANTI` is Italian).
    private func bracketSlipWord(_ word: ArraySlice<UInt32>, written: String) -> (Int32, Int, Int)? {
        let chars = Array(written)
        guard word.count == chars.count, chars.count >= Self.bracketSlipMinLength else { return nil }
        let mixedCase = chars.contains { $0.isLowercase }
        func isGlyph(_ c: Character, before: Character?) -> Bool {
            c == "1" || (c == "I" && mixedCase) || (c == "l" && before.map { $0 != "o" && $0 != "O" } ?? true)
        }
        func known(_ rest: ArraySlice<UInt32>) -> (Int32, Int, Int)? {
            guard !rest.contains(where: Token.isDigit) else { return nil }
            let id = index.id(ofWordHash: Token.hash(rest))
            return id >= 0 ? (id, rest.startIndex, rest.endIndex) : nil
        }
        let atStart = isGlyph(chars[0], before: nil) ? known(word.dropFirst()) : nil
        let atEnd = isGlyph(chars[chars.count - 1], before: chars[chars.count - 2]) ? known(word.dropLast()) : nil
        return atStart != nil && atEnd != nil ? nil : atStart ?? atEnd
    }

    /// The vocabulary id of a word of letters with one or two of them read as digits (`S0DIUM`,
    /// `C1TRIC`), the digits turned back into the letters they look like; -1 when no such word is
    /// known. Four letters or more must stay letters, so a code or a quantity (`E1O2`, `100g`, `B12`)
    /// never becomes a name.
    private func digitSlipWordID(_ t: Token) -> Int32 {
        let word = norm.scalars[Int(t.start)..<Int(t.end)]
        let digits = word.filter(Token.isDigit)
        guard digits.count <= 2, word.count - digits.count >= 4, digits.allSatisfy({ Self.digitLetters[$0] != nil })
        else { return -1 }
        var spelled = Array(word)
        func search(_ from: Int) -> Int32 {
            guard let i = spelled[from...].firstIndex(where: Token.isDigit) else {
                return index.id(ofWordHash: Token.hash(spelled))
            }
            let digit = spelled[i]
            defer { spelled[i] = digit }
            for letter in Self.digitLetters[digit]! {
                spelled[i] = letter
                let id = search(i + 1)
                if id >= 0 { return id }
            }
            return -1
        }
        return search(0)
    }

    /// US certified colours are a colour word and a number (`Yellow 5`, `Red 40`, `Blue 1`).
    static let usColourWords: [[UInt32]] = ["RED", "YELLOW", "BLUE", "GREEN"].map { $0.unicodeScalars.map(\.value) }
    static let usColourKeys: [UInt64] = usColourWords.map { Token.hash($0) }
    static let dyeKey = Token.hash("DYE")

    /// The colour word and number of a US colour name that OCR glued (`Yellow6`, `RED40`) or
    /// misread (`YELLOWS` for `Yellow 5`, `Red 4O`, `BLUE l`, `biue 1`): the vocabulary ids of the
    /// word and the repaired number, and the token holding the number. Nil for a name read
    /// right, which the walk finds as it is; the walk still decides whether the pair is a name.
    private func usColourNumber(at k: Int) -> (colour: Int32, number: Int32, numberToken: Int)? {
        let t = tokens[k]
        guard t.kind == .word, t.length >= 3, t.length <= 8 else { return nil }
        let word = norm.scalars[Int(t.start)..<Int(t.end)]
        // Thin strokes read as each other inside the colour word: `BIUE`, `YELL0W`.
        func letter(_ v: UInt32) -> UInt32 { v == 0x49 || v == 0x31 ? 0x4C : v == 0x30 ? 0x4F : v }
        for colour in Self.usColourWords where word.count >= colour.count {
            guard zip(word.prefix(colour.count), colour).allSatisfy({ letter($0) == $1 }) else { continue }
            let rest = word.dropFirst(colour.count)
            let exact = word.prefix(colour.count).elementsEqual(colour)
            let numberToken: Int
            let number: ArraySlice<UInt32>
            if rest.isEmpty {
                guard k + 1 < tokens.count, tokens[k + 1].kind == .word, !consumed[k + 1], tokens[k + 1].length <= 2
                else { return nil }
                // Read right: the usual walk finds it.
                if exact && tokens[k + 1].isDigits { return nil }
                numberToken = k + 1
                number = norm.scalars[Int(tokens[k + 1].start)..<Int(tokens[k + 1].end)]
            } else {
                guard rest.count <= 2 else { return nil }
                numberToken = k
                number = rest
            }
            guard let digits = Self.slipDigits(number) else { return nil }
            let colourID = index.id(ofWordHash: Token.hash(colour))
            let numberID = index.id(ofWordHash: Token.hash(digits))
            guard colourID >= 0, numberID >= 0 else { return nil }
            return (colourID, numberID, numberToken)
        }
        return nil
    }

    /// A number as OCR may read it in small print, letters read for digits undone
    /// (`CodeReader.slips`: `4O` is 40, `S` is 5, `l` is 1). Nil when a scalar is neither.
    static func slipDigits(_ s: ArraySlice<UInt32>) -> [UInt32]? {
        var out: [UInt32] = []
        for v in s {
            guard let d = Token.isDigit(v) ? v : CodeReader.slips[v] else { return nil }
            out.append(d)
        }
        return out.isEmpty ? nil : out
    }

    /// The vocabulary id of `word-word` at token `k` read as one word, when the hyphen has
    /// no space on either side, neither part has a digit, the joined word is known, and
    /// either one part is not known or the first is a short prefix (`mono-`, `di-`, `tri-`):
    /// `alpha-tocopherol` stays two known words, as its name is written.
    private func hyphenJoinedID(at k: Int) -> Int32? {
        guard k + 2 < tokens.count else { return nil }
        let a = tokens[k], hyphen = tokens[k + 1], b = tokens[k + 2]
        guard a.kind == .word, hyphen.kind == .punct, hyphen.key == 0x2D, !hyphen.spaceBefore,
              b.kind == .word, !b.spaceBefore, !a.hasDigit, !b.hasDigit, !consumed[k + 2] else { return nil }
        let first = norm.scalars[Int(a.start)..<Int(a.end)], second = norm.scalars[Int(b.start)..<Int(b.end)]
        let joined = index.id(ofWordHash: Token.hash(first + second))
        guard joined >= 0, a.length <= 4 || index.id(ofWordHash: a.key) < 0 || index.id(ofWordHash: b.key) < 0 else {
            return nil
        }
        return joined
    }

    /// Shortest joined word `spaceJoinedID` reads: at seven, Italian `pane pro pane` (bread) read as
    /// `propane`.
    static let spaceJoinMinLength = 8

    /// Shortest joined word `spaceJoinedID` reads when one part is a single letter at a line end.
    static let lineEndLetterJoinMinLength = 6

    /// The vocabulary id of the words at `k` and `k + 1` read as one, when only white space (a
    /// space or a line break) stands between them, neither has a digit or is a stop word, each
    /// has two letters or more, the joined word is a known word of `spaceJoinMinLength` letters or
    /// more, and at least one part is no known word: `leci thin`, `Citronen säure`, `phos` / `phoric`.
    /// Two known words stay two (`soy lecithin`).
    ///
    /// At a line end a part may be one letter, the joined word six letters or more (`calciu` / `m
    /// sulfate`, `C` / `itronensäure`): a narrow column wraps a word there and OCR loses the hyphen.
    private func spaceJoinedID(at k: Int) -> Int32? {
        guard k + 1 < tokens.count else { return nil }
        let a = tokens[k], b = tokens[k + 1]
        let letterAtLineEnd = min(a.length, b.length) == 1 && norm.startsLine(b.start)
        guard a.kind == .word, b.kind == .word, b.spaceBefore, !a.hasDigit, !b.hasDigit,
              letterAtLineEnd || (a.length >= 2 && b.length >= 2),
              a.length + b.length >= (letterAtLineEnd ? Self.lineEndLetterJoinMinLength : Self.spaceJoinMinLength),
              !consumed[k + 1],
              !NameIndex.stopWords.contains(a.key), !NameIndex.stopWords.contains(b.key) else { return nil }
        let idA = index.id(ofWordHash: a.key), idB = index.id(ofWordHash: b.key)
        guard idA < 0 || idB < 0 else { return nil }
        let joined = index.id(ofWordHash: Token.hash(norm.scalars[Int(a.start)..<Int(a.end)] + norm.scalars[Int(b.start)..<Int(b.end)]))
        return joined >= 0 ? joined : nil
    }

    /// Pass 4: which items name additives, then functions and context per item.
    private mutating func resolveStructure() {
        codeHits.removeAll { negated[$0.tokens.lowerBound] }
        nameHits.removeAll { negated[$0.tokens.lowerBound] }
        let splits = joinedClassWords()
        if !splits.isEmpty {
            structure = IngredientStructure(tokens: tokens, splitBefore: splits)
            for h in classHits { structure.noteClass(at: h.tokens, function: h.function, nutrient: h.nutrient, weak: h.weak) }
        }
        for h in codeHits where !h.needsContext { structure.noteAdditive(at: h.tokens.lowerBound) }
        for n in nameHits where !n.contextOnly { structure.noteAdditive(at: n.tokens.lowerBound) }
        // `colours: caramel, paprika extract`: an ordinary-food name of its header's own function
        // keeps the header's list going, as a plain name does (before, the list ended at `caramel`
        // and `paprika extract`, a food name too, lost its colour).
        let functions = self.functions
        for n in nameHits where n.contextOnly {
            let k = Int(structure.itemOfToken[n.tokens.lowerBound])
            guard k >= 0, let h = structure.items[k].header, let f = structure.items[h].ownFunction,
                  n.code.lineage.lazy.compactMap({ functions[$0] }).first?.contains(f) == true else { continue }
            structure.noteAdditive(at: n.tokens.lowerBound)
        }
        structure.liftTrailingFunctions(tokens: tokens)
        for (k, t) in tokens.enumerated() where t.isDigits && (3...4).contains(t.length) && !consumed[k] {
            let it = structure.itemOfToken[k]
            if it >= 0, structure.items[Int(it)].tokens.lowerBound == k { structure.noteAdditive(at: k) }
        }
        structure.resolve()
    }

    /// `and` (or ` & `) before a second class word of another function, after something that follows the
    /// item's first (`Colour (160a) and Acidity Regulator (330)`, `acidulant E330 et correcteur
    /// d'acidité E331`): the item splits there, so each class word governs its own part.
    /// `Emulgatoren und Stabilisatoren (E407)` stays one item: nothing stands between them.
    private func joinedClassWords() -> Set<Int> {
        var splits = Set<Int>()
        for h in classHits where h.function != nil && !h.nutrient {
            let a = h.tokens.lowerBound - 1
            guard a > 0, isAnd(a),
                  structure.itemOfToken[a] == structure.itemOfToken[h.tokens.lowerBound], let it = item(a),
                  let first = it.classTokens, first.upperBound < a, it.ownFunction != h.function else { continue }
            splits.insert(a)
        }
        return splits
    }

    /// Pass 5: bare numbers in the scope of a class word (`acidity regulators (330, 331)`).
    private mutating func readBareNumbers() {
        // Digits, or digits with a letter or sub-form the code reader accepts (`150d`, `160a(ii)`).
        for (k, t) in tokens.enumerated() where !consumed[k] && !negated[k] && t.kind == .word && t.hasDigit
            && Token.isDigit(norm.scalars[Int(t.start)]) {
            guard let it = item(k) else { continue }
            // `caramel colour (150d)`, `soy lecithin (322)`: a bracketed number right after a name
            // of the same additive is its code, with or without a class word.
            let namedBefore = it.function == nil && k > 0 && tokens[k - 1].kind == .punct && tokens[k - 1].key == 0x28
                ? nameHits.last { $0.tokens.upperBound == k - 1 } : nil
            guard it.function != nil || namedBefore != nil else { continue }
            // A number inside a word run (`Red 40`) or a quantity is not a code; right after the
            // item's own class word it is (`Preservative 211`, `Colour 150d`, `Emulsifier 322 (soy)`),
            // when that word was read surely and names one of the code's functions (an OCR
            // `Säure` from `SUREE` above a nutrition table's `100` is not E100).
            // So is a number right after a name of the same additive (`Colour (Caramel 150d)`).
            var afterClassWord = false
            var afterName: Candidate?
            if k > 0, tokens[k - 1].kind == .word, !consumed[k - 1], !Self.conjunctions.contains(tokens[k - 1].key) {
                if it.classTokens?.upperBound == k, !it.weakClass {
                    afterClassWord = true
                } else if let n = nameHits.last(where: { $0.tokens.upperBound == k }) {
                    afterName = n
                } else {
                    continue
                }
            }
            // `2044.550`, `1,330`: the tail of a longer number. But a comma between two numbers of
            // three digits or more, the first already read as a code, lists codes with its space
            // left out: `flavour enhancer (627,631)`.
            if k >= 2, Token.isInnerNumberPunct(tokens, k - 1), !listsCodes(comma: k - 1) { continue }
            guard let h = reader.readBare(at: k) else { continue }
            if afterClassWord, !sameFunction(h.code, it) { continue }
            if let n = afterName, !Self.sameAdditive(n.code, h.code) { continue }
            if let n = namedBefore, !Self.sameAdditive(n.code, h.code) { continue }
            for j in h.tokens { consumed[j] = true }
            codeHits.append(h)
        }
    }

    /// The comma at `c` separates two codes written without a space (`627,631`), not a number's
    /// parts (`1,330`, `12,500`): the number before it was read as a code and both have three
    /// digits or more.
    private func listsCodes(comma c: Int) -> Bool {
        tokens[c].key == 0x2C && consumed[c - 1] && codeHits.contains { $0.tokens.upperBound == c }
            && tokens[c - 1].length >= 3 && tokens[c + 1].length >= 3
    }

    private mutating func noteUnmatched(_ code: ECode) {
        if unmatchedSeen.insert(code.description).inserted { result.unmatched.append(code.description) }
    }

    /// Known codes and names in label order; unknown well-formed codes go to `unmatched`.
    private mutating func candidates() -> [Candidate] {
        var candidates: [Candidate] = []
        codeHits.sort { $0.tokens.lowerBound < $1.tokens.lowerBound }
        for h in codeHits {
            if !h.known {
                // On a photo, an unknown code read from unsure words is more likely noise than a new additive.
                let sure = ocr.flatMap { $0.isEmpty ? nil : $0.mean(over: byteRange(h.tokens)) } ?? 1
                if !h.needsContext, sure >= Self.sureConfidence { noteUnmatched(h.code) }
                continue
            }
            var c = Candidate(code: h.code, tokens: h.tokens, kind: h.kind, needsContext: h.needsContext, isCode: true)
            if spelledOutUnsure(h.tokens) || brokenOverLinesUnsure(h.tokens) { (c.needsContext, c.spelledOut) = (true, true) }
            candidates.append(c)
        }
        let names = nameHits.filter { n in !n.tokens.contains(where: { consumed[$0] }) }.map(caramelProcessNamed)
        // A name inside a caramel's process words (`ammonia` of `caramel (ammonia sulphite process)`)
        // is part of the caramel's name, not E527.
        let processes = names.filter { $0.code.number == Self.caramel.number && $0.code.letter != nil }.map(\.tokens)
        candidates += names.filter { n in
            !processes.contains { $0 != n.tokens && $0.contains(n.tokens.lowerBound) && $0.contains(n.tokens.upperBound - 1) }
        }.map(caramelClassNamed)
        candidates.sort { $0.tokens.lowerBound < $1.tokens.lowerBound }
        return candidates
    }

    /// Words that name a caramel colour's process (folded prefixes): ammonia and sulphite, in the
    /// label languages (`ammonia`, `Ammoniak`, `ammoniaca`, Croatian `amonijačno`, Latvian
    /// `amonjaka`; `sulphite`, `sulfite`, `Sulfit`, `solfito`, `sulfiet`, `sulfitna`, `sulfīta`).
    private static let ammoniaPrefixes: [[UInt32]] = ["AMMONI", "AMONI", "AMONJ"].map { Array($0.unicodeScalars.map(\.value)) }
    private static let sulphitePrefixes: [[UInt32]] = ["SULPHIT", "SULFIT", "SOLFIT", "SULFIET"].map { Array($0.unicodeScalars.map(\.value)) }

    private func startsWithAny(_ k: Int, _ prefixes: [[UInt32]]) -> Bool {
        guard k >= 0, k < tokens.count, tokens[k].kind == .word else { return false }
        let w = norm.scalars[Int(tokens[k].start)..<Int(tokens[k].end)]
        return prefixes.contains { w.count >= $0.count && w.prefix($0.count).elementsEqual($0) }
    }

    /// A caramel colour's Codex process names its class (CXG 36: caustic sulphite, ammonia, sulphite
    /// ammonia caramel): `caramel (ammonia sulphite process)` after the name, or an ammonia word right
    /// before a sulphite caramel's name (`amonijačno-sulfitna karamela`, which the caustic sulphite
    /// caramel's `sulfitna karamela` would otherwise name): E150d for ammonia with sulphite, E150c for
    /// ammonia alone.
    private func caramelProcessNamed(_ n: Candidate) -> Candidate {
        guard !n.isCode, n.code.number == Self.caramel.number else { return n }
        var refined = n
        var before = n.tokens.lowerBound - 1
        if before >= 0, tokens[before].kind == .punct, tokens[before].key == 0x2D { before -= 1 }
        if n.code == ECode(number: 150, letter: "b"), startsWithAny(before, Self.ammoniaPrefixes) {
            refined.code = ECode(number: 150, letter: "d")
            refined.tokens = before..<n.tokens.upperBound
        } else if n.code == Self.caramel || n.code == ECode(number: 150, letter: "a") {
            // `Zuckerkulör (Ammoniak)`: the plain caramel's name stands for caramel colour at large.
            var j = n.tokens.upperBound
            if let cls = item(n.tokens.lowerBound)?.classTokens, cls.lowerBound == j { j = cls.upperBound }
            guard j < tokens.count, tokens[j].kind == .punct, tokens[j].key == 0x28 || tokens[j].key == 0x5B else { return n }
            var ammonia = false, sulphite = false, end = j + 1
            while end < tokens.count, end - j <= 6, tokens[end].kind != .punct || tokens[end].key == 0x2D {
                ammonia = ammonia || startsWithAny(end, Self.ammoniaPrefixes)
                sulphite = sulphite || startsWithAny(end, Self.sulphitePrefixes)
                end += 1
            }
            guard ammonia, end < tokens.count, tokens[end].key == 0x29 || tokens[end].key == 0x5D else { return n }
            refined.code = ECode(number: 150, letter: sulphite ? "d" : "c")
            refined.tokens = n.tokens.lowerBound..<(end + 1)
        } else {
            return n
        }
        return standingAlone(refined, else: n)
    }

    /// `refined`, a caramel colour whose class its words named, standing without further context;
    /// `n` when the store has no such class.
    private func standingAlone(_ refined: Candidate, else n: Candidate) -> Candidate {
        guard reader.knownCodes.contains(refined.code) else { return n }
        var c = refined
        c.contextOnly = false
        c.needsContext = false
        return c
    }

    private static let caramel = ECode(number: 150)
    private static let classWords: Set<UInt64> = Set(["CLASS", "CLASSE", "KLASSE", "CLASE"].map(Token.hash))
    private static let caramelClasses: [UInt64: Character] = [Token.hash("I"): "a", Token.hash("II"): "b",
                                                              Token.hash("III"): "c", Token.hash("IV"): "d"]

    /// `caramel colour (class IV)`, `class III caramel`, `caramel color (IV)`: the Codex class of
    /// a caramel colour (CXG 36; FSANZ Schedule 8 prints `caramel IV`) names its code, E150a to
    /// E150d. The class is a roman numeral, after `class` or alone, right before or after the
    /// name and its class word (in brackets or not). A name needing context needs none once its
    /// class is given.
    private func caramelClassNamed(_ n: Candidate) -> Candidate {
        guard n.code == Self.caramel else { return n }
        func isPunct(_ i: Int, _ keys: [UInt64]) -> Bool { i < tokens.count && tokens[i].kind == .punct && keys.contains(tokens[i].key) }
        func free(_ i: Int) -> Bool { i >= 0 && i < tokens.count && tokens[i].kind == .word && !consumed[i] }
        func isClassWord(_ i: Int) -> Bool { free(i) && Self.classWords.contains(tokens[i].key) }
        func caramelClass(_ i: Int) -> Character? { free(i) ? Self.caramelClasses[tokens[i].key] : nil }
        var refined = n
        // After: `(class IV)`, `(IV)`, `class IV`, `IV`.
        var j = n.tokens.upperBound
        // `caramel colour (class IV)`: the class word of the name's own item may come between.
        if let cls = item(n.tokens.lowerBound)?.classTokens, cls.lowerBound == j { j = cls.upperBound }
        let bracket = isPunct(j, [0x28, 0x5B])
        if bracket { j += 1 }
        let classed = isClassWord(j)
        if classed { j += 1 }
        if let letter = caramelClass(j),
           !bracket || isPunct(j + 1, [0x29, 0x5D]), bracket || classed || j + 1 == tokens.count || tokens[j + 1].kind == .punct {
            refined.code = ECode(number: 150, letter: letter)
            refined.tokens = n.tokens.lowerBound..<(bracket ? j + 2 : j + 1)
        } else if isClassWord(n.tokens.lowerBound - 2), let letter = caramelClass(n.tokens.lowerBound - 1) {
            // Before: `class IV caramel colour`.
            refined.code = ECode(number: 150, letter: letter)
            refined.tokens = (n.tokens.lowerBound - 2)..<n.tokens.upperBound
        } else {
            return n
        }
        return standingAlone(refined, else: n)
    }

    /// A code spelled in single digits set apart (`E 2 5 0`) from unsure OCR words: on a photo
    /// that is as often the net quantity (`℮ 250 g`, its `g` misread) or stray marks as a code,
    /// so it counts only after a class word of its own function or beside another code (real-dev
    /// 07440: `℮ 250` of a margarine's French panel fell in the scope of the German `Farbstoff:`
    /// above it). Typed text and surely read words are not affected.
    private func spelledOutUnsure(_ span: Range<Int>) -> Bool {
        guard let ocr, !ocr.isEmpty, span.lazy.filter({ tokens[$0].isDigits && tokens[$0].length == 1 }).count >= 2 else { return false }
        return (ocr.mean(over: byteRange(span)) ?? 1) < Self.sureConfidence
    }

    /// A code whose prefix and number stand on two lines (`e` at a line's end, `222` at the next
    /// one's start), both read so unsurely that the report marks them (`OCRSummary.unsureBelow`):
    /// in letter soup that is a stray `e` and a stray number more often than a code, so it counts
    /// only as `spelledOutUnsure` does (real-dev `07549` b2, a blurred carton, read `⟨e⟩` / `⟨222⟩`
    /// as E222). A sub-form on the next line (`E452` / `(i)`) is no such break; typed text and
    /// words read less unsurely are not affected (gold `g0572`: `E` / `392` at 60–85).
    private func brokenOverLinesUnsure(_ span: Range<Int>) -> Bool {
        guard let ocr, !ocr.isEmpty, span.count >= 2,
              let number = span.first(where: { tokens[$0].isDigits }), number > span.lowerBound,
              (span.lowerBound + 1...number).contains(where: { norm.startsLine(tokens[$0].start) }) else { return false }
        return (ocr.mean(over: byteRange(span)) ?? 1) < OCRSummary.unsureBelow / 100
    }

    /// Merges `citric acid (E330)`, `E330 (citric acid)` and `acide citrique E-330` into one candidate.
    private func merge(_ candidates: [Candidate]) -> [(parts: [Candidate], best: Candidate)] {
        var merged: [(parts: [Candidate], best: Candidate)] = []
        var c = 0
        while c < candidates.count {
            let a = candidates[c]
            if c + 1 < candidates.count, a.isCode != candidates[c + 1].isCode,
               Self.sameAdditive(a.code, candidates[c + 1].code),
               joinable(from: a.tokens.upperBound, to: candidates[c + 1].tokens.lowerBound,
                        closingAfter: candidates[c + 1].tokens.upperBound) {
                let b = candidates[c + 1]
                var best = a.isCode ? a : b
                let other = a.isCode ? b : a
                if best.code.isAncestor(of: other.code) { best.code = other.code }
                best.tokens = a.tokens.lowerBound..<b.tokens.upperBound
                merged.append(([a, b], best))
                c += 2
                continue
            }
            merged.append(([a], a))
            c += 1
        }
        return merged
    }

    /// Applies the context rules and builds the mentions.
    private mutating func emitMentions(_ merged: [(parts: [Candidate], best: Candidate)]) {
        // Slip prefixes count when a class word governs them or a true code sits in a neighbouring item.
        var itemHasCode = [Bool](repeating: false, count: structure.items.count + 1)
        for cand in merged.map(\.best) where cand.isCode && !cand.needsContext {
            let k = structure.itemOfToken[cand.tokens.lowerBound]
            if k >= 0 { itemHasCode[Int(k)] = true }
        }
        func neighbourIsCode(_ cand: Candidate) -> Bool {
            let k = Int(structure.itemOfToken[cand.tokens.lowerBound])
            return k >= 0 && ((k > 0 && itemHasCode[k - 1]) || itemHasCode[k + 1])
        }

        var ingredientCache = [String?](repeating: nil, count: structure.items.count)
        var coveredItems = [Int8](repeating: -1, count: structure.items.count)
        var covered = [Bool](repeating: false, count: tokens.count)
        var mentionsPerItem = [Int](repeating: 0, count: structure.items.count + 1)
        for m in merged {
            for k in m.best.tokens { covered[k] = true }
            let k = Int(structure.itemOfToken[m.best.tokens.lowerBound])
            if k >= 0 { mentionsPerItem[k] += 1 }
        }
        let amongNutrients = nutrientListReadings(merged)
        for (i, m) in merged.enumerated() {
            var best = m.best
            let first = best.tokens.lowerBound
            let context = item(first)?.function != nil
            if m.parts.count == 1 {
                if best.contextOnly || amongNutrients[i],
                   !(item(first).map { ($0.directContext && !joinedToClassWord(first, $0)) || sameFunction(best.code, $0) } ?? false),
                   amongNutrients[i] || !joinedToAdditive(i, merged, amongNutrients) { continue }
                if best.contextOnly && !best.isCode && inNutritionDeclaration(best.tokens) { continue }
                // `gesättigte Fettsäuren`, `acides gras saturés`: a name qualified as saturated
                // is a line of the nutrition table, whatever the name's own marks.
                if !best.isCode && inNutritionDeclaration(best.tokens, window: saturationWindow(best),
                                                          is: Self.isSaturationWord) { continue }
                if best.needsContext && !neighbourIsCode(best) {
                    let vouched = best.spelledOut && functionKnown(best.code) ? (item(first).map { sameFunction(best.code, $0) } ?? false) : context
                    if !vouched { continue }
                }
                if best.compound, !(item(first).map { sameFunction(best.code, $0) } ?? false), !neighbourIsCode(best) { continue }
                if !best.isCode, !ocrNameHolds(best) { continue }
            }
            if !best.isCode, namesMicrobes(best.nameTokens) { continue }
            if !best.isCode, qualifiedByAnotherMetal(best.nameTokens) { continue }
            // `Tartaric Esters of …`: an acid's name right before an ester word names the ester.
            if !best.isCode, best.nameTokens.upperBound < tokens.count, tokens[best.nameTokens.upperBound].kind == .word,
               endsInEsterWord(best.nameTokens.upperBound) { continue }
            if !best.isCode, best.code.number == Self.fattyAcids, afterOfWord(best.nameTokens) { continue }
            if !best.isCode, best.code == Self.monoAndDiglycerides, followsEsterWord(best.nameTokens, covered: covered) {
                best.code = Self.glycerideEsters
            }
            if let it = item(first), it.inNutrientGroup,
               best.kind == .ins || (!best.isCode && !countsAmongNutrients(best)) { continue }
            var texts = m.parts.map { original($0.tokens) }
            let span = byteRange(best.tokens)
            let k = Int(structure.itemOfToken[first])
            var function: String?
            if k >= 0 {
                let it = structure.items[k]
                function = it.function == FunctionClasses.genericID ? nil : it.function
                // `Farbstoff E 150d`: the class word right before the additive is part of what named it.
                if let cls = it.classTokens, cls.upperBound <= first,
                   tokens[cls.upperBound..<first].allSatisfy({ $0.kind == .punct && $0.key == 0x3A }) {
                    texts.insert(original(cls), at: 0)
                }
            }
            var confidence = Self.baseConfidence(best)
            if let ocr, let mean = ocr.mean(over: span) { confidence *= mean }
            let ingredient = k >= 0
                ? ingredientText(item: k, covered: covered, cache: &ingredientCache, coveredItems: &coveredItems,
                                 fallback: texts.last ?? "", mentionsInItem: mentionsPerItem[k])
                : nil
            result.mentions.append(Mention(code: best.code, matchedText: texts, span: span, kind: best.kind,
                                           confidence: confidence, function: function, ingredient: ingredient))
        }
    }

    /// Words for the bacteria and cultures an acid's name qualifies: `lactic acid bacteria`, `lactic
    /// acid starter culture`, `Milchsäure-Bakterien`, `bacterias del ácido láctico`, `acetic acid
    /// bacteria`. Those are cultures (yogurt, cheese, sausage, vinegar), not the acid.
    static let microbeWords: [UInt64] = [
        "BACTERIA", "BACTERIUM", "BACTERIAL", "CULTURE", "CULTURES", "STARTER", "STARTERS", "BAKTERIEN",
        "BAKTERIENKULTUREN", "KULTUREN", "KULTUR", "BACTERIES", "FERMENTS", "BACTERIAS", "CULTIVOS", "FERMENTOS",
        "BATTERI", "FERMENTI", "COLTURE", "BACTERIEN", "CULTUREN", "BACTERIAN", "BAKTERIE", "BAKTERIER",
    ].map(Token.hash)
    /// Words that may stand between such a word and the acid's name before it (`bacterias del ácido láctico`).
    static let microbeLinks: [UInt64] = ["OF", "DE", "DEL", "DES", "DU", "D", "DI", "DELL", "VON", "VAN"].map(Token.hash)

    /// Whether the name in `r` qualifies bacteria or cultures: one of `microbeWords` right after it
    /// (a hyphen between: `Milchsäure-Bakterien`), or right before it with at most one link word.
    private func namesMicrobes(_ r: Range<Int>) -> Bool {
        var j = r.upperBound
        if j < tokens.count, tokens[j].kind == .punct, tokens[j].key == 0x2D { j += 1 }
        if j < tokens.count, tokens[j].kind == .word, Self.microbeWords.contains(tokens[j].key) { return true }
        var i = r.lowerBound - 1
        if i >= 0, tokens[i].kind == .punct, tokens[i].key == 0x27 { i -= 1 }  // `d'acide`
        if i >= 0, tokens[i].kind == .word, Self.microbeLinks.contains(tokens[i].key) { i -= 1 }
        return i >= 0 && tokens[i].kind == .word && Self.microbeWords.contains(tokens[i].key)
    }

    /// Metals whose salts the Union list's anion-named additives do not cover (the diphosphates of
    /// E450 are sodium, potassium, calcium and magnesium salts): `iron pyrophosphate`,
    /// `pyrophosphate ferrique`, `pirofosfato férrico` are nutrient sources in fortified cereals.
    static let otherMetalsBefore: [UInt64] = ["IRON", "FERRIC", "FERROUS", "ZINC", "COPPER", "MANGANESE", "EISEN",
                                              "ZINK", "KUPFER", "MANGAN", "IJZER", "FERRICO", "FERROSO"].map(Token.hash)
    static let otherMetalsAfter: [UInt64] = ["FERRIQUE", "FERREUX", "FERRICO", "FERRICA", "FERRICI", "FERROSO", "FERROSA",
                                             "FERRIC", "FERROUS", "ZINCIQUE"].map(Token.hash)
    /// `de fer`, `di ferro`, `de hierro`, `de zinc`, `di zinco`, `van ijzer`: the metal after a link word.
    static let otherMetalsLinked: [UInt64] = ["FER", "FERRO", "HIERRO", "ZINC", "ZINCO", "CUIVRE", "RAME", "COBRE",
                                              "IJZER", "ZINK", "KOPER"].map(Token.hash)

    /// Whether the name in `r` is an anion the label qualifies by a metal beside it that is not part
    /// of the name (`iron pyrophosphate` read as `pyrophosphate`): then it names that metal's salt.
    private func qualifiedByAnotherMetal(_ r: Range<Int>) -> Bool {
        let before = r.lowerBound - 1
        if before >= 0, tokens[before].kind == .word, Self.otherMetalsBefore.contains(tokens[before].key) { return true }
        var after = r.upperBound
        guard after < tokens.count, tokens[after].kind == .word else { return false }
        if Self.otherMetalsAfter.contains(tokens[after].key) { return true }
        if Self.microbeLinks.contains(tokens[after].key) {
            after += 1
            if after < tokens.count, tokens[after].kind == .punct, tokens[after].key == 0x27 { after += 1 }
            return after < tokens.count && tokens[after].kind == .word && Self.otherMetalsLinked.contains(tokens[after].key)
        }
        return false
    }

    /// E570, fatty acids.
    static let fattyAcids = 570
    /// Words for `of` before a fatty-acid name: `of`, `von`, `degli`, `des`, `d'`, `van`, `af`, `av`, `dos`.
    static let ofWords: [UInt64] = microbeLinks
        + ["DEGLI", "DEI", "DELLE", "DELLO", "DELLA", "DOS", "DAS", "DO", "DA", "AF", "AV", "ZE", "Z"].map(Token.hash)
    /// The longer of them, also read with one slip (`vonn`, `degh`) or glued to the word before
    /// (`Diglyceridenvon`, `digliceridegli`) or split in two (`deg li`).
    static let longOfWords: [[UInt32]] = ["VON", "VAN", "DES", "DEL", "DEGLI", "DELLE", "DOS"].map { Array($0.unicodeScalars.map(\.value)) }

    /// Whether the name in `r` follows a word for `of` (`Mono- und Diglyceride von Speisefettsäuren`,
    /// `esteri di saccarosio degli acidi grassi`, `salts of fatty acids`): fatty acids named so are
    /// the tail of another additive's name. When OCR breaks its head (`Diglycericle von
    /// Speisefettsäuren`) the tail alone is not E570.
    private func afterOfWord(_ r: Range<Int>) -> Bool {
        var i = r.lowerBound - 1
        if i >= 0, tokens[i].kind == .punct, tokens[i].key == 0x27 { i -= 1 }  // `d'acides gras`
        guard i >= 0, tokens[i].kind == .word else { return false }
        if Self.ofWords.contains(tokens[i].key) { return true }
        var w = Array(norm.scalars[Int(tokens[i].start)..<Int(tokens[i].end)])
        if w.count <= 3, i >= 1, tokens[i - 1].kind == .word, tokens[i - 1].end - tokens[i - 1].start <= 3 {
            w = Array(norm.scalars[Int(tokens[i - 1].start)..<Int(tokens[i - 1].end)]) + w  // `deg li`
        }
        return Self.longOfWords.contains { of in
            EditDistance.bounded(w, of, limit: 1) <= 1 || (w.count >= of.count + 3 && w.suffix(of.count).elementsEqual(of))
        }
    }

    static let monoAndDiglycerides = ECode(number: 471)
    static let glycerideEsters = ECode(number: 472)
    /// `lattici`, `melkzuur-`: the words of an ester of mono- and diglycerides whose acid the store's
    /// names do not spell as the label does (`esteri lattici dei mono- e digliceridi`).
    static let esterWords: [[UInt32]] = ["ESTER", "ESTERS", "ESTERI", "ESTERES", "ESTERE"].map { $0.unicodeScalars.map(\.value) }

    /// Whether word token `k` is an ester word or a compound ending in one.
    private func endsInEsterWord(_ k: Int) -> Bool {
        let w = norm.scalars[Int(tokens[k].start)..<Int(tokens[k].end)]
        return Self.esterWords.contains { w.count >= $0.count && w.suffix($0.count).elementsEqual($0) }
    }

    /// Whether an ester word (or a compound ending in one: `Milchsäureester`, `melkzuuresters`) stands
    /// within six words before the name in `r`, in its item, and is no other additive's word:
    /// `esteri lattici dei mono- e digliceridi`, `ésteres de ácido diacetiltartárico de mono y
    /// diglicéridos` name an E472 ester, not E471; in `polyglycerol esters of fatty acids and mono- and
    /// diglycerides` the ester word is E475's (`covered`).
    private func followsEsterWord(_ r: Range<Int>, covered: [Bool]) -> Bool {
        var k = r.lowerBound - 1
        var seen = 0
        while k >= 0, seen < 6, !covered[k] {
            let t = tokens[k]
            if t.kind == .punct {
                if t.key == 0x2C || t.key == 0x3B || t.key == 0x28 || t.key == 0x29 || t.key == 0x3A || t.key == 0x2E { return false }
                k -= 1
                continue
            }
            if endsInEsterWord(k) { return true }
            seen += 1
            k -= 1
        }
        return false
    }

    /// Under a vitamins-and-minerals header, a mineral salt named in full (`calcium carbonate`)
    /// and vitamin C named as an ascorbic acid or ascorbate (`sodium ascorbate`) are additive
    /// substances, as the gold truth and the shared real-photo manifest count them; the
    /// vitamins named as vitamins (`riboflavin`, `beta-carotene`, `vitamin E`) are nutrients.
    private func countsAmongNutrients(_ c: Candidate) -> Bool {
        if NutrientSalts.mayBeNutrient(words(c.nameTokens)) { return true }
        return c.code.lineage.contains { Self.ascorbates.contains($0) }
    }

    /// Ascorbic acid and its salts and esters (E300–E304).
    static let ascorbates: Set<ECode> = Set(["E300", "E301", "E302", "E303", "E304"].compactMap { ECode($0) })

    /// Folded words of a token range.
    private func words(_ r: Range<Int>) -> [ArraySlice<UInt32>] {
        r.compactMap { tokens[$0].kind == .word ? norm.scalars[Int(tokens[$0].start)..<Int(tokens[$0].end)] : nil }
    }

    /// Which name candidates are read as nutrients because their list is a list of nutrients.
    ///
    /// Infant formula and mineral premixes list salts without a class word: `carbonate de
    /// calcium, chlorures de calcium, citrates de potassium, phosphate de calcium`. When at
    /// least two items of one list (the items of one bracket, or under one header) name salts
    /// that need additive context, and no item names an additive that is not a mineral salt or
    /// an amino acid, the mineral salts and amino acids of that list need context too
    /// (`NutrientSalts`). A printed code always counts.
    private func nutrientListReadings(_ merged: [(parts: [Candidate], best: Candidate)]) -> [Bool] {
        var out = [Bool](repeating: false, count: merged.count)
        guard merged.count >= 3 else { return out }
        func key(_ c: Candidate) -> Int64? {
            let k = Int(structure.itemOfToken[c.tokens.lowerBound])
            guard k >= 0 else { return nil }
            let it = structure.items[k]
            return Int64(it.parent ?? -1) << 32 | Int64(UInt32(truncatingIfNeeded: it.header ?? -1))
        }
        // Context-only salts first: most texts have none, and then nothing else is looked at.
        var salts: [Int64: Int] = [:]
        for m in merged where m.parts.count == 1 && !m.best.isCode && m.best.contextOnly {
            if let g = key(m.best), NutrientSalts.isSalt(words(m.best.nameTokens)) { salts[g, default: 0] += 1 }
        }
        guard salts.values.contains(where: { $0 >= 2 }) else { return out }
        var others: [Int64: Int] = [:]
        for (i, m) in merged.enumerated() {
            let best = m.best
            guard !best.contextOnly, !best.needsContext, let g = key(best), salts[g, default: 0] >= 2 else { continue }
            if m.parts.count == 1 && !best.isCode && NutrientSalts.mayBeNutrient(words(best.nameTokens)) {
                out[i] = true
            } else {
                others[g, default: 0] += 1
            }
        }
        for i in merged.indices where out[i] {
            out[i] = key(merged[i].best).map { others[$0, default: 0] == 0 } ?? false
        }
        return out
    }

    /// Whether a context-only salt is joined by `and` to an additive that needs no context:
    /// `talc et carbonate de calcium`, `E341 and calcium carbonate`. Fortification lists salts
    /// with vitamins and minerals, not with additives.
    private func joinedToAdditive(_ i: Int, _ merged: [(parts: [Candidate], best: Candidate)],
                                  _ amongNutrients: [Bool]) -> Bool {
        let me = merged[i].best
        guard !me.isCode, NutrientSalts.isSalt(words(me.nameTokens)) else { return false }
        for j in [i - 1, i + 1] where j >= 0 && j < merged.count {
            let other = merged[j].best
            guard !other.contextOnly, !other.needsContext, !amongNutrients[j] else { continue }
            let gap = j < i ? other.tokens.upperBound : me.tokens.upperBound
            let next = j < i ? me.tokens.lowerBound : other.tokens.lowerBound
            guard next == gap + 1, isAnd(gap),
                  structure.itemOfToken[gap] == structure.itemOfToken[me.tokens.lowerBound] else { continue }
            return true
        }
        return false
    }

    /// Words of the nutrition declaration (EU Reg. 1169/2011 Annex XV in the label languages):
    /// `davon gesättigte Fettsäuren`, `acides gras saturés`, `of which saturates`, `Nährwerte`.
    static let nutritionWords: [String] = ["GESATTIGT", "UNGESATTIGT", "SATURATE", "SATURE", "INSATURE", "SATURI",
                                           "INSATURI", "SATURADO", "INSATURADO", "VERZADIGD", "ONVERZADIGD",
                                           "NAHRWERT", "NUTRITION"]
    /// How many words on either side of a name are searched for a nutrition word.
    static let nutritionWindow = 6
    /// The nutrition words that qualify fats as saturated or unsaturated: no additive name is.
    static let saturationWords: [String] = ["GESATTIGT", "UNGESATTIGT", "SATURATE", "SATURE", "INSATURE", "SATURI",
                                            "INSATURI", "SATURADO", "INSATURADO", "VERZADIGD", "ONVERZADIGD"]
    /// How many words on either side of a name are searched for a saturation word.
    static let saturationWindow = 2

    /// How far from `c` a saturation word is sought: `saturationWindow` words, or
    /// `nutritionWindow` for a slipped name read from unsure words. A blurred bilingual table
    /// reads its qualifier slipped beyond the German rule or a line further on: real-dev
    /// `09297` b3 read `davon gesättigte Fettsäuren | acides gras saturés` as `peratiigte
    /// Fettsduren | GOM acides pras satares`, and `Fettsduren` became fatty acids (E570).
    private func saturationWindow(_ c: Candidate) -> Int {
        guard let ocr, !ocr.isEmpty, c.kind == .fuzzy,
              (ocr.mean(over: byteRange(c.tokens)) ?? 1) < Self.unsureNameConfidence else { return Self.saturationWindow }
        return Self.nutritionWindow
    }

    /// A saturation word (folded) as small print reads: one of `saturationWords` or longer, or
    /// the German `gesättigte` within two slips (`gesdttigte`, `gesditigte` on real phone
    /// frames), or a Romance form within one slip after its `SAT` (`satares`, `satori`).
    /// `NATURE` is not one: the `SAT` must be read.
    static func isSaturationWord(_ w: String) -> Bool {
        if saturationWords.contains(where: { w.hasPrefix($0) }) { return true }
        let v = Array(w.unicodeScalars.map(\.value))
        for f in germanSaturation where v.count >= f.count - 1 {
            if EditDistance.bounded(Array(v.prefix(f.count)), f, limit: 2) <= 2 { return true }
        }
        guard v.count >= 5, w.hasPrefix("SAT") else { return false }
        return romanceSaturation.contains { abs(v.count - $0.count) <= 1 && EditDistance.bounded(v, $0, limit: 1) <= 1 }
    }
    private static let germanSaturation = ["GESATTIGTE", "UNGESATTIGTE"].map { Array($0.unicodeScalars.map(\.value)) }
    private static let romanceSaturation = ["SATURES", "SATURE", "SATURI", "SATURATED", "SATURADOS", "SATURADAS"]
        .map { Array($0.unicodeScalars.map(\.value)) }

    /// Whether a name sits in a nutrition table: a nutrition word within a few words of it.
    /// Names that are also nutrients (`Fettsäuren`, `acides gras`, `vitamin C`) are context-only;
    /// on a photo a class word read nearby must not make the table's line an additive.
    private func inNutritionDeclaration(_ range: Range<Int>, window: Int = nutritionWindow,
                                        is word: (String) -> Bool = { w in nutritionWords.contains { w.hasPrefix($0) } }) -> Bool {
        func isNutrition(_ k: Int) -> Bool {
            let t = tokens[k]
            guard t.kind == .word, t.length >= 4 else { return false }
            return word(String(String.UnicodeScalarView(norm.scalars[Int(t.start)..<Int(t.end)].compactMap(Unicode.Scalar.init))))
        }
        var words = 0
        var k = range.lowerBound - 1
        while k >= 0, words < window {
            if tokens[k].kind == .word { words += 1; if isNutrition(k) { return true } }
            k -= 1
        }
        words = 0
        k = range.upperBound
        while k < tokens.count, words < window {
            if tokens[k].kind == .word { words += 1; if isNutrition(k) { return true } }
            k += 1
        }
        return false
    }

    /// Confidence (0...1) OCR must have in a name's words for a fuzzy or short name to count
    /// without a class word of its own function around it.
    static let unsureNameConfidence = 0.75
    /// OCR confidence at which weak evidence stands alone: a short name, an unknown code.
    static let sureConfidence = 0.85
    /// One-slip names of at least this many letters count without context, as in typed text.
    static let longSlipLetters = 8
    /// Names of at most this many letters are short: OCR noise spells them by chance (`PES`, `ADA`, `Alan`).
    static let shortNameLetters = 4

    /// On OCR text, whether a name match is good evidence of an additive.
    ///
    /// Real phone photos read as a sea of short garbled words, and by chance some are a
    /// short additive name (`PES`, `ADA`) or one slip from a name (`Alan` → `alaun`). Such
    /// matches count only when a class word of the additive's own function governs them
    /// (`Verdickungsmittel: PES`), or when OCR was sure of the words (a short name at
    /// `sureConfidence`, a slip at `unsureNameConfidence`: a misprint on the label).
    /// Exact names of five letters or more, slips in words of `longSlipLetters` or more,
    /// and all names in typed text are unaffected.
    private func ocrNameHolds(_ c: Candidate) -> Bool {
        guard let ocr, !ocr.isEmpty else { return true }
        let letters = tokens[c.tokens].reduce(0) { $0 + ($1.kind == .word ? $1.length : 0) }
        let short = letters <= Self.shortNameLetters
        // A slip in a long word (`CARRAÄGENANOS`) is rarely chance; in a short one (`Alan`) it often is.
        guard short || (c.kind == .fuzzy && letters < Self.longSlipLetters) else { return true }
        if let it = item(c.tokens.lowerBound) {
            // Own function when the store knows the additive's functions; any class word when it does not.
            let known = functionKnown(c.code)
            if !it.weakContext, known ? sameFunction(c.code, it) : it.directContext,
               !classWordWellAfter(c.tokens, in: it) { return true }
            // US style, the function after the name: `PGPR, EMULSIFIER`.
            let k = Int(structure.itemOfToken[c.tokens.lowerBound])
            if known, k + 1 < structure.items.count, let f = structure.items[k + 1].ownFunction, !structure.items[k + 1].weakClass,
               structure.items[k + 1].classTokens?.lowerBound == structure.items[k + 1].tokens.lowerBound,
               c.code.lineage.lazy.compactMap({ self.functions[$0] }).first?.contains(f) == true {
                return true
            }
        }
        let sure = ocr.mean(over: byteRange(c.tokens)) ?? 1
        return sure >= (short ? Self.sureConfidence : Self.unsureNameConfidence)
    }

    /// Whether the item's own class word comes more than `classWordAfterNameWords` words after
    /// the name: a sentence, not a function given to the name. Real-dev `07441` b4, a jar's
    /// note `… daher ⟨tann⟩ sich … absetzen … [ne contient] aucuns stabilisants.` read as one
    /// item (no comma; `aucuns` lost in a garbled word): the unsure `tann` (`kann`) became
    /// tannin (E181, a stabiliser) by the class word eight words on. `Emulgator Sojalecithin`
    /// (before the name) and `PES thickener` (right after it) still vouch.
    private func classWordWellAfter(_ name: Range<Int>, in item: IngredientStructure.Item) -> Bool {
        guard let cls = item.classTokens, cls.lowerBound >= name.upperBound else { return false }
        return tokens[name.upperBound..<cls.lowerBound].lazy.filter { $0.kind == .word }.count > Self.classWordAfterNameWords
    }

    /// Words that may stand between a weak name and its item's class word after it.
    static let classWordAfterNameWords = 1

    /// A class word read with a slip from unsure words, in a word shorter than `longSlipLetters`
    /// (`faree` as `Farbe`): on a page of garbled words that is often chance. It still sets the
    /// item's function, but vouches for no short or slipped name (`ocrNameHolds`). Real-dev
    /// 07470 (a frame of blurred print): `faree (… prta` gave silver (E174, Portuguese `prata`).
    private func weakClassWord(_ range: Range<Int>) -> Bool {
        guard let ocr, !ocr.isEmpty else { return false }
        let letters = tokens[range].reduce(0) { $0 + ($1.kind == .word ? $1.length : 0) }
        return letters < Self.longSlipLetters && (ocr.mean(over: byteRange(range)) ?? 1) < Self.unsureNameConfidence
    }

    /// `mit Süssungsmitteln und Vitamin C`, `avec édulcorants et vitamine C`: the item's class
    /// word is joined to the name by `and`, so it names another ingredient, not the name's
    /// function. Such a class word makes no ordinary-food name (a context name) an additive.
    func joinedToClassWord(_ first: Int, _ item: IngredientStructure.Item) -> Bool {
        guard let cls = item.classTokens, cls.upperBound < first else { return false }
        return isAnd(cls.upperBound)
    }

    /// Whether the store knows a function of `code` (or of its group), so a class word can be checked against it.
    private func functionKnown(_ code: ECode) -> Bool {
        code.lineage.contains { functions[$0] != nil }
    }

    /// Whether the class word governing `item` names one of `code`'s functions: under
    /// `colours: E102, E129, carmine` the header still vouches for `carmine` (a colour),
    /// but `colorant : E120, vitamine C` does not make vitamin C an additive.
    private func sameFunction(_ code: ECode, _ item: IngredientStructure.Item) -> Bool {
        guard let f = item.function, f != FunctionClasses.genericID else { return false }
        return code.lineage.lazy.compactMap { functions[$0] }.first?.contains(f) ?? false
    }

    /// Whether only brackets, a hyphen, spaces or the item's class word separate two pieces
    /// naming one additive.
    private func joinable(from a: Int, to b: Int, closingAfter end: Int) -> Bool {
        guard b >= a, b - a <= 4 else { return false }
        var opened = false
        for k in a..<b {
            let t = tokens[k]
            // `caramel colour (150d)`: the item's class word may sit between a name and its code.
            if t.kind == .word, let cls = item(k)?.classTokens, cls.contains(k) { continue }
            guard t.kind == .punct, k - a < 2 || tokens[a].kind == .word else { return false }
            switch t.key {
            case 0x28, 0x5B: opened = true
            case 0x2D, 0x3A: break
            default: return false
            }
        }
        // `citric acid (E330, E331)`: the bracket must hold just the one code.
        if opened {
            guard end < tokens.count, tokens[end].kind == .punct,
                  tokens[end].key == 0x29 || tokens[end].key == 0x5D else { return false }
        }
        return true
    }

    /// The ingredient an item's mention belongs to: the item's own text, or its header's or
    /// parent's when the item is nothing but additives (`Emulsifiers (E442, E476)`).
    private func ingredientText(item k: Int, covered: [Bool], cache: inout [String?], coveredItems: inout [Int8],
                                fallback: String, mentionsInItem: Int) -> String? {
        func head(_ k: Int) -> String? {
            if let s = cache[k] { return s }
            let it = structure.items[k]
            let lo = it.tokens.lowerBound, hi = min(it.headEnd, it.tokens.upperBound)
            guard hi > lo else { return nil }
            // Ingredient names are short; a run-on line without separators is cut.
            let end = min(hi, lo + 24)
            var s = original(lo..<end)
            if s.utf8.last == 0x3A { s = String(s.dropLast()).trimmedSpaces() }
            cache[k] = s
            return s
        }
        let it = structure.items[k]
        let onlyAdditives: Bool
        if coveredItems[k] >= 0 {
            onlyAdditives = coveredItems[k] == 1
        } else {
            let lo = it.tokens.lowerBound, hi = min(it.headEnd, it.tokens.upperBound)
            var only = true
            var n = 0
            let cls = it.classTokens ?? 0..<0
            for j in lo..<hi where tokens[j].kind == .word && !covered[j] && !cls.contains(j) {
                n += 1
                if n > 64 || !Self.conjunctions.contains(tokens[j].key) { only = false; break }
            }
            coveredItems[k] = only ? 1 : 0
            onlyAdditives = only
        }
        if onlyAdditives {
            // A header whose scope ended (`colorant : E120, sucre, E500`) no longer names the ingredient.
            if let h = it.header, it.function != nil || structure.items[h].function == nil, let s = head(h) { return s }
            if let p = it.parent, let s = head(p) { return s }
            // `Farbstoff E 150d`: the class word names the ingredient.
            if let cls = it.classTokens { return original(cls) }
            // `lutein and tartrazine`: additives joined by a conjunction are separate ingredients.
            return mentionsInItem > 1 ? fallback : head(k)
        }
        return head(k)
    }

    private static func baseConfidence(_ c: Candidate) -> Double {
        switch c.kind {
        case .code: return 1
        case .ins: return 0.95
        case .name: return c.contextOnly ? 0.9 : 1
        case .fuzzy: return max(0.5, 0.85 - 0.1 * Double(c.edits - 1))
        case .repaired: return 0.75
        }
    }

    /// Same additive at the level a label writes it: `caramel` (E150) and `E150d` agree.
    private static func sameAdditive(_ a: ECode, _ b: ECode) -> Bool {
        a == b || a.isAncestor(of: b) || b.isAncestor(of: a) || a.base == b.base
    }
}

extension String {
    /// Trims ASCII and Unicode whitespace at both ends without Foundation's character sets.
    fileprivate func trimmedSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
