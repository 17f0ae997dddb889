/// A validated additive code such as `E102`, `E150d`, `E160a(ii)` or `E1422`.
///
/// `ECode("e 160 a (ii)")`, `ECode("INS 160a(ii)")` and `ECode("E160aii")` all give
/// the same value. The initializer accepts only clean input (a prefix, digits,
/// an optional letter and an optional roman sub-form); finding codes inside
/// running text and repairing OCR slips is the parser's job.
public struct ECode: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The number, 100...1999 for E-numbers in use.
    public let number: Int
    /// Lowercase letter suffix (`d` in E150d), if any.
    public let letter: Character?
    /// Lowercase roman-numeral sub-form (`ii` in E160a(ii)), if any.
    public let roman: String?

    public init(number: Int, letter: Character? = nil, roman: String? = nil) {
        self.number = number
        self.letter = letter.map { Character($0.lowercased()) }
        self.roman = roman?.lowercased()
    }

    public init?(_ text: String) {
        // Works on ASCII bytes with early exits: the parser asks this of every
        // dictionary name when it builds its index, and almost all are not codes.
        var b: [UInt8] = []
        b.reserveCapacity(16)
        for byte in text.utf8 {
            switch byte {
            case 0x20, 0x09, 0x2D, 0x2E, 0x5F: continue  // space, tab, - . _
            case 0x80...: return nil
            default:
                b.append(byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0))
                if b.count > 16 { return nil }
            }
        }
        var i = 0
        func has(_ p: String) -> Bool { b.count >= i + p.utf8.count && zip(b[i...], p.utf8).allSatisfy { $0 == $1 } }
        for prefix in ["ins", "sin", "e"] where has(prefix) {
            i += prefix.utf8.count
            break
        }
        let digitsStart = i
        var n = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
            n = n * 10 + Int(b[i] - 0x30)
            i += 1
            if i - digitsStart > 5 { return nil }
        }
        guard i > digitsStart, n > 0, n < 2000 else { return nil }
        var rest = String(decoding: b[i...], as: UTF8.self)
        var letter: Character?
        if let c = rest.first, ECode.suffixLetters.contains(c),
           !ECode.isRomanStart(Substring(rest)) || (rest.count == 1 && ECode.romanLookingLetters[n] == c) {
            letter = c
            rest.removeFirst()
        }
        if rest.hasPrefix("(") && rest.hasSuffix(")") { rest = String(rest.dropFirst().dropLast()) }
        if rest.hasPrefix("[") && rest.hasSuffix("]") { rest = String(rest.dropFirst().dropLast()) }
        var roman: String?
        if !rest.isEmpty {
            guard ECode.romanNumerals.contains(rest) else { return nil }
            roman = rest
        }
        self.init(number: n, letter: letter, roman: roman)
    }

    /// Letter suffixes in use (E150a–d, E160a–f, E161a–j, E472a–g); others are not codes.
    static let suffixLetters: Set<Character> = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]

    /// Codes whose letter looks like a roman numeral: E161i (citranaxanthin) is a
    /// letter form, where `E450i` would be the sub-form E450(i).
    static let romanLookingLetters: [Int: Character] = [161: "i"]

    /// Roman sub-forms used in additive codes (E160a(ii), E450(iii), E472(ix)...).
    static let romanNumerals: Set<String> = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"]

    private static func isRomanStart(_ s: Substring) -> Bool {
        var rest = String(s)
        if rest.hasPrefix("(") && rest.hasSuffix(")") { rest = String(rest.dropFirst().dropLast()) }
        return romanNumerals.contains(rest)
    }

    /// `E160a(ii)`: the canonical written form.
    public var description: String {
        var s = "E\(number)"
        if let letter { s.append(letter) }
        if let roman { s += "(\(roman))" }
        return s
    }

    /// The code without its roman sub-form (`E160a` for E160a(ii)): the level
    /// at which the gold set and the benchmark compare.
    public var withoutSubForm: ECode { ECode(number: number, letter: letter) }

    /// The number alone (`E160` for E160a(ii)).
    public var base: ECode { ECode(number: number) }

    /// The next code up: E160a(ii) → E160a → E160 → nil.
    public var parent: ECode? {
        if roman != nil { return withoutSubForm }
        if letter != nil { return base }
        return nil
    }

    /// This code, then each code up: E160a(ii), E160a, E160.
    public var lineage: [ECode] {
        var out = [self]
        while let p = out[out.count - 1].parent { out.append(p) }
        return out
    }

    /// Whether `self` is a code above `other` (E160 is above E160a(ii)).
    public func isAncestor(of other: ECode) -> Bool {
        other.lineage.dropFirst().contains(self)
    }

    public static func < (a: ECode, b: ECode) -> Bool {
        if a.number != b.number { return a.number < b.number }
        let la = a.letter.map(String.init) ?? "", lb = b.letter.map(String.init) ?? ""
        if la != lb { return la < lb }
        return (a.roman ?? "") < (b.roman ?? "")
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let code = ECode(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an additive code: \(text)"))
        }
        self = code
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
