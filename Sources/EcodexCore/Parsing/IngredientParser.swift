/// Finds additive mentions in ingredient text.
///
/// PLACEHOLDER: a first version that finds E/INS codes only; the parser issue
/// replaces it with the full parser (names, OCR slips, function hints).
public struct IngredientParser: Sendable {
    public let lexicon: Lexicon

    public init(lexicon: Lexicon) {
        self.lexicon = lexicon
    }

    /// Parses `text`; `words` are the OCR words it came from, when it came from OCR.
    public func parse(_ text: String, words: [OCRWord]? = nil) -> ParseResult {
        var result = ParseResult()
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i] | 0x20
            let atWordStart = i == 0 || !isAlnum(bytes[i - 1])
            if atWordStart, b == UInt8(ascii: "e") {
                var j = i + 1
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "-") { j += 1 }
                let start = j
                while j < bytes.count, isDigit(bytes[j]) { j += 1 }
                if j - start >= 3 && j - start <= 4 {
                    var end = j
                    if end < bytes.count, isLetter(bytes[end]), end + 1 >= bytes.count || !isAlnum(bytes[end + 1]) { end += 1 }
                    if end >= bytes.count || !isAlnum(bytes[end]) {
                        let raw = String(decoding: bytes[i..<end], as: UTF8.self)
                        if let code = ECode(raw) {
                            if lexicon.knownCodes.contains(code) || lexicon.knownCodes.contains(code.base) {
                                result.mentions.append(Mention(code: code, matchedText: [raw], span: i..<end, kind: .code))
                            } else if !result.unmatched.contains(code.description) {
                                result.unmatched.append(code.description)
                            }
                        }
                        i = end
                        continue
                    }
                }
            }
            i += 1
        }
        return result
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    private func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
    private func isAlnum(_ b: UInt8) -> Bool { isDigit(b) || isLetter(b) || b >= 0x80 }
}
