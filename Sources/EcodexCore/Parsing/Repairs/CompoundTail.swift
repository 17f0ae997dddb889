/// Repair: a source and an additive written as one word, read by its last part (`Sonnenblumenlecithine`).
extension ParseSession {
    /// The known last part a compound word is read by.
    struct CompoundPart {
        /// The part's vocabulary id, or -1 when only one of its forms is known.
        var id: Int32
        /// Ids of the part's other number (`NameIndex.formIDs`), or -1.
        var forms: (Int32, Int32)
    }

    /// Shortest compound word read by its last part, and the shortest part and head it may have.
    static let compoundMinLength = 10
    static let compoundTailMinLength = 6
    static let compoundHeadMinLength = 3
    /// Shortest last part of a compound word that may carry a slip.
    static let compoundSlipTailMinLength = 8

    /// German and Dutch write a source and an additive as one word: `Sonnenblumenlecithine`,
    /// `Rapslecithin`, `Apfelpektin`, `zonnebloemlecithine`. An unknown long word within no slip of a known
    /// word, whose last part (six letters or more) is a known word or one of its forms, is
    /// read as that part: the longest such part wins. The mention it makes counts only under a
    /// class word of its own function (`Emulgator Sonnenblumenlecithine`) or beside a code.
    /// Checked against the German and Dutch word lists of Tesseract's models (58,000 and
    /// 339,000 words): the other compounds they hold (`Polycarbonat`, `Amylopectine`) are kept
    /// out by that class word, or listed in `compoundsOfOtherSubstances`.
    func compoundTail(_ t: Token, scratch: inout NameIndex.FuzzyCache) -> CompoundPart? {
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
                return near.isEmpty ? CompoundPart(id: id, forms: forms) : nil
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
                return whole.isEmpty ? CompoundPart(id: near[0], forms: (-1, -1)) : nil
            }
            if near.count > 1 { return nil }
            cut += 1
        }
        return nil
    }
}
