/// Repair: digits read for letters of the same shape inside a word (`S0DIUM`, `C1TRIC`).
extension ParseSession {
    /// Digits OCR reads for letters of the same shape inside a word (`S0DIUM`, `POLYS0RBATE`, `C1TRIC`).
    static let digitLetters: [UInt32: [UInt32]] = [0x30: [0x4F], 0x31: [0x49, 0x4C], 0x35: [0x53], 0x38: [0x42]]

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
