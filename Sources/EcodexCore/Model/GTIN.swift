/// A product barcode number (GTIN): EAN-8, UPC-A (GTIN-12), UPC-E, EAN-13 or GTIN-14.
///
/// The one owner of check digits, UPC-E expansion and the canonical key products are
/// stored and looked up under; ZBar decoding, typed digits, imports and the product cache
/// all go through it, so the same product always meets the same key.
///
/// The canonical key is the GTIN-14 form with its leading zeros dropped down to 13 digits,
/// except that a number whose GTIN-14 form starts with six zeros is an EAN-8 and keeps 8:
/// `036000291452` (UPC-A) → `0036000291452`; `0000096385074` → `96385074`;
/// `04006381333931` → `4006381333931`; a GTIN-14 with indicator digit 1–9 keeps 14.
public struct GTIN: Hashable, Sendable, CustomStringConvertible {
    /// The canonical key, ASCII digits.
    public let key: String

    public var description: String { key }

    /// The symbology a shopper would call this number, from its key.
    public var symbology: String {
        switch key.utf8.count {
        case 8: "EAN-8"
        case 14: "GTIN-14"
        default: "EAN-13"
        }
    }

    /// Reads a number typed or printed under the bars: 8 to 14 digits (spaces and hyphens
    /// ignored) whose last digit is the GS1 check digit of the others. An 8-digit number is
    /// read as an EAN-8; use `lookupKeys(typed:)` when it may also be a UPC-E.
    public init?(_ typed: String) {
        var ascii: [UInt8] = []
        for b in typed.utf8 where b != 0x20 && b != 0x2D {
            ascii.append(b)
            if ascii.count > 14 { return nil }
        }
        var key = [UInt8](repeating: 0, count: 14)
        let n = ascii.withUnsafeBufferPointer { GTIN.canonicalKey(ascii: $0, into: &key) }
        guard let n else { return nil }
        self.key = String(decoding: key[0..<n], as: UTF8.self)
    }

    /// A number as ZBar reports it: a UPC-E is expanded to the UPC-A it stands for first
    /// (its 8 digits are not an EAN-8). Nil when the digits do not fit the symbology or
    /// the check digit is wrong.
    public init?(symbology: String, digits: String) {
        let lengths = ["EAN-13": 13, "EAN-8": 8, "UPC-A": 12, "UPC-E": 8]
        guard let length = lengths[symbology], digits.utf8.count == length else { return nil }
        if symbology == "UPC-E" {
            guard let d = GTIN.digits(digits), let upcA = GTIN.expandUPCE(d) else { return nil }
            self.init(String(decoding: upcA.map { $0 + 0x30 }, as: UTF8.self))
        } else {
            self.init(digits)
        }
    }

    /// The keys to look a typed number up under, best first: the number itself, then for an
    /// 8-digit number that is also a valid UPC-E, the UPC-A it expands to.
    public static func lookupKeys(typed: String) -> [GTIN] {
        var keys: [GTIN] = []
        if let own = GTIN(typed) { keys.append(own) }
        let stripped = typed.filter { $0 != " " && $0 != "-" }
        if let upcE = GTIN(symbology: "UPC-E", digits: stripped), !keys.contains(upcE) { keys.append(upcE) }
        return keys
    }

    /// The GS1 check digit for `body` (the digits before the check digit): weights 3, 1, 3, …
    /// from the rightmost digit leftwards, for every GTIN length.
    public static func checkDigit<C: BidirectionalCollection>(of body: C) -> Int where C.Element: BinaryInteger {
        var sum = 0
        for (i, d) in body.reversed().enumerated() { sum += Int(d) * (i % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    /// The 12 digits of the UPC-A an 8-digit UPC-E (number system 0 or 1) stands for, or nil
    /// when it is not one or its check digit is wrong.
    public static func expandUPCE(_ e: [UInt8]) -> [UInt8]? {
        guard e.count == 8, e[0] == 0 || e[0] == 1, e.allSatisfy({ $0 <= 9 }) else { return nil }
        let d = Array(e[1...6])
        let body: [UInt8]
        switch d[5] {
        case 0, 1, 2: body = [d[0], d[1], d[5], 0, 0, 0, 0, d[2], d[3], d[4]]
        case 3: body = [d[0], d[1], d[2], 0, 0, 0, 0, 0, d[3], d[4]]
        case 4: body = [d[0], d[1], d[2], d[3], 0, 0, 0, 0, 0, d[4]]
        default: body = [d[0], d[1], d[2], d[3], d[4], 0, 0, 0, 0, d[5]]
        }
        let upcA = [e[0]] + body + [e[7]]
        return checkDigit(of: upcA.dropLast()) == Int(e[7]) ? upcA : nil
    }

    /// Writes the canonical key of the ASCII digits in `ascii` into `key` (14 bytes at
    /// least) and returns its length, or nil when they are not a valid GTIN. Allocates
    /// nothing: the product importer calls it once per line.
    public static func canonicalKey(ascii: UnsafeBufferPointer<UInt8>, into key: inout [UInt8]) -> Int? {
        let n = ascii.count
        guard n >= 8, n <= 14, key.count >= 14 else { return nil }
        // GTIN-14 form: zero padding keeps the check digit (zeros weigh nothing).
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 14) { gtin -> Int? in
            for i in 0..<(14 - n) { gtin[i] = 0 }
            for i in 0..<n {
                let c = ascii[i]
                guard c >= 0x30, c <= 0x39 else { return nil }
                gtin[14 - n + i] = Int(c - 0x30)
            }
            guard checkDigit(of: UnsafeMutableBufferPointer(rebasing: gtin[0..<13])) == gtin[13] else { return nil }
            var start = 0
            if gtin[0] == 0 { start = 1 }
            if start == 1, gtin[1] == 0, gtin[2] == 0, gtin[3] == 0, gtin[4] == 0, gtin[5] == 0 { start = 6 }
            for i in start..<14 { key[i - start] = UInt8(gtin[i]) + 0x30 }
            return 14 - start
        }
    }

    /// The digit values of an all-digit string, or nil.
    static func digits(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        for b in text.utf8 {
            guard b >= 0x30, b <= 0x39 else { return nil }
            out.append(b - 0x30)
        }
        return out
    }
}
