import Foundation
import Testing
@testable import EcodexCore

/// `GTIN` is the one owner of check digits, UPC-E expansion and the canonical key: these
/// properties hold for thousands of random numbers of every length.
@Suite struct GTINTests {
    static let cases = 2_000

    /// A random valid number of `length` digits (the last one its check digit).
    static func valid(_ length: Int, _ rng: inout SeededRandom) -> String {
        let body = (0..<(length - 1)).map { _ in Int.random(in: 0...9, using: &rng) }
        return (body + [GTIN.checkDigit(of: body)]).map(String.init).joined()
    }

    static func padded14(_ s: String) -> String { String(repeating: "0", count: 14 - s.count) + s }

    @Test func everyLengthValidatesAndCanonicalizesConsistently() {
        var rng = SeededRandom(seed: SeededRandom.seed("GTIN lengths"))
        for _ in 0..<Self.cases {
            let length = [8, 12, 13, 14].randomElement(using: &rng)!
            let s = Self.valid(length, &rng)
            guard let g = GTIN(s) else { Issue.record("valid \(length)-digit \(s) refused"); continue }
            // The key names the same GTIN-14, has a canonical length, and is a fixed point.
            #expect(Self.padded14(g.key) == Self.padded14(s), "\(s) → \(g.key)")
            #expect([8, 13, 14].contains(g.key.count), "\(s) → \(g.key)")
            #expect(GTIN(g.key) == g, "\(s): key \(g.key) is not its own key")
            // Zero padding up to 14 digits names the same product.
            for pad in 0..<(14 - length) where pad > 0 {
                #expect(GTIN(String(repeating: "0", count: pad) + s) == g, "\(s) padded by \(pad)")
            }
            // Spaces and hyphens are ignored.
            #expect(GTIN(s.prefix(4) + " " + s.dropFirst(4).prefix(3) + "-" + s.dropFirst(7)) == g)
        }
    }

    @Test func everySingleDigitErrorIsCaught() {
        var rng = SeededRandom(seed: SeededRandom.seed("GTIN single errors"))
        for _ in 0..<Self.cases {
            let s = Array(Self.valid([8, 12, 13, 14].randomElement(using: &rng)!, &rng))
            let i = Int.random(in: 0..<s.count, using: &rng)
            let old = s[i].wholeNumberValue!
            var wrong = s
            wrong[i] = Character(String((old + Int.random(in: 1...9, using: &rng)) % 10))
            #expect(GTIN(String(wrong)) == nil, "\(String(wrong)) (from \(String(s))) accepted")
        }
    }

    @Test func upcEExpandsToTheUPCAItStandsFor() {
        var rng = SeededRandom(seed: SeededRandom.seed("GTIN UPC-E"))
        for _ in 0..<Self.cases {
            let ns = UInt8.random(in: 0...1, using: &rng)
            let six = (0..<6).map { _ in UInt8.random(in: 0...9, using: &rng) }
            // The check digit of a UPC-E is that of its UPC-A expansion.
            let unchecked = [ns] + six + [0]
            let expanded = GTIN.expandUPCE(unchecked) ?? expandIgnoringCheck(unchecked)
            let check = UInt8(GTIN.checkDigit(of: expanded.dropLast()))
            let upcE = [ns] + six + [check]
            let text = upcE.map(String.init).joined()
            guard let g = GTIN(symbology: "UPC-E", digits: text) else { Issue.record("UPC-E \(text) refused"); continue }
            let upcA = GTIN.expandUPCE(upcE)!.map(String.init).joined()
            #expect(g == GTIN(upcA) && g == GTIN(symbology: "UPC-A", digits: upcA), "\(text) → \(g.key), UPC-A \(upcA)")
            // Typed, the 8 digits may be an EAN-8 or a UPC-E: the UPC-A is among the keys.
            #expect(GTIN.lookupKeys(typed: text).contains(g))
        }
    }

    /// The expansion without the check (to compute a check digit for a random UPC-E).
    func expandIgnoringCheck(_ e: [UInt8]) -> [UInt8] {
        for c in UInt8(0)...9 {
            var candidate = e
            candidate[7] = c
            if let x = GTIN.expandUPCE(candidate) { return x }
        }
        Issue.record("no check digit makes \(e) a UPC-E")
        return []
    }

    @Test(arguments: [
        ("4006381333931", "4006381333931"), ("04006381333931", "4006381333931"), ("036000291452", "0036000291452"),
        ("96385074", "96385074"), ("0000096385074", "96385074"), ("00000096385074", "96385074"),
        ("4006 3813 3393 1", "4006381333931"), ("10614141000415", "10614141000415"),
    ])
    func knownNumbers(typed: String, key: String) { #expect(GTIN(typed)?.key == key) }

    @Test(arguments: ["4006381333932", "1234567", "400638133393100", "abcdefghijklm", "", "96385075", "E4006381333931"])
    func invalidNumbers(_ typed: String) { #expect(GTIN(typed) == nil) }

    @Test func zbarSymbologiesAndTheImporterAgree() {
        #expect(GTIN(symbology: "UPC-E", digits: "04252614")?.key == "0042100005264")
        #expect(GTIN(symbology: "UPC-E", digits: "04252615") == nil)
        #expect(GTIN(symbology: "EAN-13", digits: "40063813339") == nil)
        #expect(GTIN(symbology: "QR", digits: "4006381333931") == nil)
        var key = [UInt8](repeating: 0, count: 14)
        let n = Array("0000096385074".utf8).withUnsafeBufferPointer { GTIN.canonicalKey(ascii: $0, into: &key) }
        #expect(n.map { String(decoding: key[0..<$0], as: UTF8.self) } == "96385074")
    }
}
