/// Repair: one word split by a hyphen (`di-gliceridi`, `Citronen-säure`), read whole.
extension ParseSession {
    /// The vocabulary id of `word-word` at token `k` read as one word, when the hyphen has
    /// no space on either side, neither part has a digit, the joined word is known, and
    /// either one part is not known or the first is a short prefix (`mono-`, `di-`, `tri-`):
    /// `alpha-tocopherol` stays two known words, as its name is written.
    func hyphenJoinedID(at k: Int) -> Int32? {
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
}
