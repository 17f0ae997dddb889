import EcodexCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal scanner for the top level of one JSON object: finds the members the importer
/// needs and skips every other value without building it.
enum JSONScan {
    struct Value {
        /// For a string, its contents between the quotes; otherwise the raw value.
        var range: Range<Int>
        var isString: Bool
        var escaped: Bool
    }

    enum Key { case code, ingredients, ingredientsEnglish, ingredientsOther, other }

    private static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C

    static func classify(_ key: Range<Int>, in p: UnsafeBufferPointer<UInt8>) -> Key {
        let n = key.count
        guard n == 4 || n == 16 || n == 19 else { return .other }
        let base = p.baseAddress! + key.lowerBound
        if n == 4 { return memcmp(base, "code", 4) == 0 ? .code : .other }
        guard memcmp(base, "ingredients_text", 16) == 0 else { return .other }
        if n == 16 { return .ingredients }
        guard base[16] == UInt8(ascii: "_"), (0x61...0x7A).contains(base[17]), (0x61...0x7A).contains(base[18]) else { return .other }
        return base[17] == UInt8(ascii: "e") && base[18] == UInt8(ascii: "n") ? .ingredientsEnglish : .ingredientsOther
    }

    /// Calls `member` for each top-level member of the object in `p`; false when `p` is not one object.
    static func topLevel(_ p: UnsafeBufferPointer<UInt8>, _ member: (Range<Int>, Value) -> Void) -> Bool {
        let n = p.count
        var i = skipSpace(p, 0)
        guard i < n, p[i] == UInt8(ascii: "{") else { return false }
        i = skipSpace(p, i + 1)
        if i < n, p[i] == UInt8(ascii: "}") { return true }
        while i < n {
            guard p[i] == quote, let key = string(p, i) else { return false }
            i = skipSpace(p, key.next)
            guard i < n, p[i] == UInt8(ascii: ":") else { return false }
            i = skipSpace(p, i + 1)
            guard i < n else { return false }
            if p[i] == quote {
                guard let s = string(p, i) else { return false }
                member(key.range, Value(range: s.range, isString: true, escaped: s.escaped))
                i = s.next
            } else {
                let start = i
                guard let end = skipValue(p, i) else { return false }
                member(key.range, Value(range: start..<end, isString: false, escaped: false))
                i = end
            }
            i = skipSpace(p, i)
            guard i < n else { return false }
            if p[i] == UInt8(ascii: ",") { i = skipSpace(p, i + 1); continue }
            if p[i] == UInt8(ascii: "}") { return true }
            return false
        }
        return false
    }

    private static func skipSpace(_ p: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var i = from
        while i < p.count, ProductLineReader.isSpace(p[i]) { i += 1 }
        return i
    }

    /// The string starting at the quote at `i`: its contents, whether it has escapes, and the index after it.
    private static func string(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (range: Range<Int>, escaped: Bool, next: Int)? {
        let base = p.baseAddress!
        var j = i + 1
        var escaped = false
        while j < p.count {
            guard let hit = memchr(base + j, Int32(quote), p.count - j) else { return nil }
            let q = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            // The quote ends the string unless an odd number of backslashes precede it.
            var k = q - 1, slashes = 0
            while k > i, p[k] == backslash { slashes += 1; k -= 1 }
            if slashes > 0 { escaped = true }
            if slashes % 2 == 0 {
                if !escaped, memchr(base + i + 1, Int32(backslash), q - i - 1) != nil { escaped = true }
                return ((i + 1)..<q, escaped, q + 1)
            }
            j = q + 1
        }
        return nil
    }

    /// The index after the non-string value at `i` (object, array, number or literal).
    private static func skipValue(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        var j = i
        var depth = 0
        while j < p.count {
            let c = p[j]
            if c == quote {
                guard depth > 0, let s = string(p, j) else { return nil }
                j = s.next
                continue
            }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                if depth == 0 { return j > i ? j : nil }
                depth -= 1
                if depth == 0 { return j + 1 }
            } else if depth == 0 && (c == UInt8(ascii: ",") || ProductLineReader.isSpace(c)) {
                return j > i ? j : nil
            }
            j += 1
        }
        return depth == 0 && j > i ? j : nil
    }

    /// Appends the UTF-8 of a JSON string's contents (escapes resolved) to `out`.
    static func unescape(_ s: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var i = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= s.count else { return nil }
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                let c = s[k]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: return nil
                }
                v = v << 4 | d
            }
            return v
        }
        while i < s.count {
            let c = s[i]
            guard c == backslash, i + 1 < s.count else { out.append(c); i += 1; continue }
            let e = s[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"), UInt8(ascii: "f"): out.append(0x20)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(i) else { out.append(UInt8(ascii: "?")); continue }
                i += 4
                if (0xD800...0xDBFF).contains(scalar), i + 6 <= s.count, s[i] == backslash, s[i + 1] == UInt8(ascii: "u"),
                   let low = hex4(i + 2), (0xDC00...0xDFFF).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: UTF8.encode(u)!)
            default: out.append(e) // \" \\ \/ and anything unknown: the character itself
            }
        }
    }
}
