/// Repair: a short or slipped name from unsure words (`PES`, `Alan`) counts only under a class word
/// of its own function, or when OCR was sure.
extension ParseSession {
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
    func ocrNameHolds(_ c: Candidate) -> Bool {
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
    /// the name: a sentence, not a function given to the name (an unsure `tann` for `kann` is no
    /// tannin because of a `stabilisants` eight words on). A class word before or right after still vouches.
    func classWordWellAfter(_ name: Range<Int>, in item: IngredientStructure.Item) -> Bool {
        guard let cls = item.classTokens, cls.lowerBound >= name.upperBound else { return false }
        return tokens[name.upperBound..<cls.lowerBound].lazy.filter { $0.kind == .word }.count > Self.classWordAfterNameWords
    }

    /// Words that may stand between a weak name and its item's class word after it.
    static let classWordAfterNameWords = 1
}
