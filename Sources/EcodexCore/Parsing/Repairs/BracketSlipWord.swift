/// Repair: a bracket OCR read as `I`, `l` or `1` glued to a word (`Iácido cítrico`, `1Natriumcarbonat`).
extension ParseSession {
    /// A word read without the bracket glyph OCR glued to it.
    struct BracketSlip {
        /// The vocabulary id of the word without the glyph.
        var id: Int32
        /// Where that word's letters lie among the folded scalars.
        var scalars: Range<Int>
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
    func bracketSlipWord(_ word: ArraySlice<UInt32>, written: String) -> BracketSlip? {
        let chars = Array(written)
        guard word.count == chars.count, chars.count >= Self.bracketSlipMinLength else { return nil }
        let mixedCase = chars.contains { $0.isLowercase }
        func isGlyph(_ c: Character, before: Character?) -> Bool {
            c == "1" || (c == "I" && mixedCase) || (c == "l" && before.map { $0 != "o" && $0 != "O" } ?? true)
        }
        func known(_ rest: ArraySlice<UInt32>) -> BracketSlip? {
            guard !rest.contains(where: Token.isDigit) else { return nil }
            let id = index.id(ofWordHash: Token.hash(rest))
            return id >= 0 ? BracketSlip(id: id, scalars: rest.startIndex..<rest.endIndex) : nil
        }
        let atStart = isGlyph(chars[0], before: nil) ? known(word.dropFirst()) : nil
        let atEnd = isGlyph(chars[chars.count - 1], before: chars[chars.count - 2]) ? known(word.dropLast()) : nil
        return atStart != nil && atEnd != nil ? nil : atStart ?? atEnd
    }
}
