extension ParseSession {
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
    func bracketSlipWord(_ word: ArraySlice<UInt32>, written: String) -> (Int32, Int, Int)? {
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
    func digitSlipWordID(_ t: Token) -> Int32 {
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
}
