/// Token ranges of a session as text: byte ranges, original text, items, `and`.
extension ParseSession {
    /// Whether token `k` joins two things as `and`/`or` does: one of `andWords`, or `&` set
    /// apart by spaces (`Mono & Diglycerides`; `FD&C` is a name's own sign).
    func isAnd(_ k: Int) -> Bool {
        let t = tokens[k]
        if t.kind == .word { return Self.andWords.contains(t.key) }
        return t.key == 0x26 && t.spaceBefore && k + 1 < tokens.count && tokens[k + 1].spaceBefore
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
}
