/// One word or punctuation mark of normalised text.
///
/// A word is a maximal run of letters (any script), digits and `|` (which OCR
/// reads for `1` and `l`); every other non-space scalar is a token of its own.
struct Token {
    enum Kind: UInt8 { case word, punct }

    var kind: Kind
    /// Range in `NormalizedText.scalars`.
    var start: Int32
    var end: Int32
    /// Whether whitespace separates this token from the previous one.
    var spaceBefore: Bool
    /// For words: FNV-1a hash of the folded scalars; for punctuation: the scalar value.
    var key: UInt64
    /// For words: all scalars are ASCII digits.
    var isDigits: Bool
    /// For words: at least one ASCII digit.
    var hasDigit: Bool

    var length: Int { Int(end - start) }

    /// Splits normalised text into tokens in one pass.
    static func tokenize(_ text: NormalizedText) -> [Token] {
        let s = text.scalars
        var tokens: [Token] = []
        tokens.reserveCapacity(s.count / 3 + 1)
        var i = 0
        var space = false
        while i < s.count {
            let v = s[i]
            if v == 0x20 { space = true; i += 1; continue }
            if isWordValue(v) {
                let start = i
                var h = fnvOffset
                var digits = true, anyDigit = false
                while i < s.count, isWordValue(s[i]) {
                    let c = s[i]
                    // `E120E171`: codes glued together split before the second `E`.
                    if c == 0x45, i > start, i + 1 < s.count, isDigit(s[i - 1]), isDigit(s[i + 1]) { break }
                    let d = c >= 0x30 && c <= 0x39
                    digits = digits && d
                    anyDigit = anyDigit || d
                    h = fnvStep(h, c)
                    i += 1
                }
                tokens.append(Token(kind: .word, start: Int32(start), end: Int32(i), spaceBefore: space,
                                    key: h, isDigits: digits, hasDigit: anyDigit))
            } else {
                tokens.append(Token(kind: .punct, start: Int32(i), end: Int32(i + 1), spaceBefore: space,
                                    key: UInt64(v), isDigits: false, hasDigit: false))
                i += 1
            }
            space = false
        }
        return tokens
    }

    /// Whether the punctuation at `k` sits between digits with no space (`1,2-diol`, `1,6 g`):
    /// part of a number or a chemical name, not a list separator.
    static func isInnerNumberPunct(_ tokens: [Token], _ k: Int) -> Bool {
        k > 0 && k + 1 < tokens.count && tokens[k - 1].isDigits && tokens[k + 1].isDigits
            && !tokens[k].spaceBefore && !tokens[k + 1].spaceBefore
    }

    @inline(__always)
    static func isDigit(_ v: UInt32) -> Bool { v >= 0x30 && v <= 0x39 }

    static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    static func fnvStep(_ h: UInt64, _ v: UInt32) -> UInt64 {
        var h = h
        h ^= UInt64(v)
        h = h &* 0x0000_0100_0000_01B3
        return h
    }

    /// The key of a word written in capitals, as tables of words spell them (`"AND"`).
    static func hash(_ word: String) -> UInt64 { hash(word.unicodeScalars.map(\.value)) }

    static func hash(_ word: some Sequence<UInt32>) -> UInt64 {
        var h = fnvOffset
        for v in word { h = fnvStep(h, v) }
        return h
    }

    @inline(__always)
    static func isWordValue(_ v: UInt32) -> Bool {
        if v < 0x80 {
            return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || v == 0x7C
        }
        if v == 0xB0 || v == 0xA3 || v == 0x20AC || v == 0x2A { return false }
        return ScalarFolder.isLetterValue(v) || (Unicode.Scalar(v)?.properties.numericType != nil)
    }
}
