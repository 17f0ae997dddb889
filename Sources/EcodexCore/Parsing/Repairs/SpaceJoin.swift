/// Repair: one word split by a space or at a line end whose hyphen OCR lost (`leci thin`, `calciu` / `m`).
extension ParseSession {
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
    func spaceJoinedID(at k: Int) -> Int32? {
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
}
