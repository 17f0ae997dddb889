#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value with one byte encoding, for what pack signatures cover.
///
/// The canonical form (what `encoded` writes and `parse(canonical:)` insists on):
/// - UTF-8, no byte-order mark, no whitespace outside strings;
/// - object keys unique and sorted by their UTF-8 bytes;
/// - numbers are integers in Int64 range, written in shortest decimal form
///   (no `+`, no leading zeros, no `-0`, no fraction or exponent);
/// - strings escape only `"`, `\` and the control characters below U+0020
///   (`\b \f \n \r \t` in short form, the rest as `\u00xx` in lowercase hex);
///   `/` and every other character are written as themselves.
///
/// Because the form is unique, a signer and a verifier that disagree about
/// whitespace or key order cannot both be right, and any change to the bytes
/// of a canonical document changes its value or makes it non-canonical.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The canonical bytes of this value.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .int(let i): out += Array(String(i).utf8)
        case .string(let s): JSONValue.encodeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.encode(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.encodeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.encode(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func encodeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [0x5C, 0x22]
            case UInt8(ascii: "\\"): out += [0x5C, 0x5C]
            case 0x08: out += [0x5C, UInt8(ascii: "b")]
            case 0x0C: out += [0x5C, UInt8(ascii: "f")]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: - Accessors

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var intValue: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool { self == .null }

    // MARK: - Parsing

    /// Parses `bytes` and requires them to be exactly the canonical encoding of the result.
    public static func parse(canonical bytes: some Collection<UInt8>) throws(CanonicalJSONError) -> JSONValue {
        try withBuffer(bytes) { buffer throws(CanonicalJSONError) in
            var parser = Parser(bytes: buffer)
            let value = try parser.parseDocument()
            guard value.encoded.elementsEqual(buffer) else { throw CanonicalJSONError(offset: 0, reason: "is valid JSON but not in canonical form") }
            return value
        }
    }

    /// Parses any JSON text (strictly: duplicate keys, fractions and exponents are refused).
    public static func parse(_ bytes: some Collection<UInt8>) throws(CanonicalJSONError) -> JSONValue {
        try withBuffer(bytes) { buffer throws(CanonicalJSONError) in
            var parser = Parser(bytes: buffer)
            return try parser.parseDocument()
        }
    }

    /// Runs `body` on the bytes in contiguous memory (copying them only when they are not).
    private static func withBuffer(
        _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(CanonicalJSONError) -> JSONValue
    ) throws(CanonicalJSONError) -> JSONValue {
        var result: Result<JSONValue, CanonicalJSONError>?
        bytes.withContiguousStorageIfAvailable { buffer in
            result = Result { () throws(CanonicalJSONError) in try body(buffer) }
        }
        if result == nil {
            Array(bytes).withUnsafeBufferPointer { buffer in
                result = Result { () throws(CanonicalJSONError) in try body(buffer) }
            }
        }
        return try result!.get()
    }

    /// A recursive-descent parser over a byte buffer. Strings without escapes
    /// (nearly all of them) become `String`s straight from the buffer.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let count: Int
        var i = 0
        var depth = 0
        /// Members of the objects being parsed, innermost last, with the offset after each value.
        var pending: [(key: String, value: JSONValue, end: Int)] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            count = bytes.count
        }

        func fail(_ reason: String) -> CanonicalJSONError { CanonicalJSONError(offset: i, reason: reason) }

        mutating func parseDocument() throws(CanonicalJSONError) -> JSONValue {
            skipSpace()
            let value = try parseValue()
            skipSpace()
            guard i == count else { throw fail("has bytes after the end of the JSON value") }
            return value
        }

        @inline(__always)
        mutating func skipSpace() {
            while i < count {
                let b = bytes[i]
                guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
                i += 1
            }
        }

        mutating func parseValue() throws(CanonicalJSONError) -> JSONValue {
            guard i < count else { throw fail("ends too early") }
            switch bytes[i] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .int(try parseInt())
            default: throw fail("has an unexpected character")
            }
        }

        mutating func literal(_ word: StaticString) throws(CanonicalJSONError) {
            let n = word.utf8CodeUnitCount
            guard i + n <= count else { throw fail("has an unknown word") }
            for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw fail("has an unknown word") }
            i += n
        }

        mutating func enter() throws(CanonicalJSONError) {
            depth += 1
            guard depth <= 64 else { throw fail("is nested too deeply") }
        }

        mutating func parseObject() throws(CanonicalJSONError) -> JSONValue {
            try enter()
            defer { depth -= 1 }
            i += 1
            skipSpace()
            if i < count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object([:]) }
            // Members wait on a stack shared by all levels, so the dictionary is
            // made once at its final size instead of growing (and rehashing) as it fills.
            let first = pending.count
            while true {
                skipSpace()
                guard i < count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expects a key") }
                let key = try parseString()
                skipSpace()
                guard i < count, bytes[i] == UInt8(ascii: ":") else { throw fail("expects ':'") }
                i += 1
                skipSpace()
                let value = try parseValue()
                pending.append((key, value, i))
                skipSpace()
                guard i < count else { throw fail("ends too early") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; break }
                throw fail("expects ',' or '}'")
            }
            var members = [String: JSONValue](minimumCapacity: pending.count - first)
            for (key, value, end) in pending[first...] where members.updateValue(value, forKey: key) != nil {
                throw CanonicalJSONError(offset: end, reason: "repeats the key \"\(key)\"")
            }
            pending.removeSubrange(first...)
            return .object(members)
        }

        mutating func parseArray() throws(CanonicalJSONError) -> JSONValue {
            try enter()
            defer { depth -= 1 }
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try parseValue())
                skipSpace()
                guard i < count else { throw fail("ends too early") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw fail("expects ',' or ']'")
            }
        }

        /// An integer in Int64 range. Leading zeros and `-0` parse (the canonical
        /// check refuses them); fractions and exponents do not.
        mutating func parseInt() throws(CanonicalJSONError) -> Int64 {
            let start = i
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            // Accumulate negatively so Int64.min fits.
            var value: Int64 = 0
            var overflow = false
            let digitsStart = i
            while i < count, bytes[i] &- UInt8(ascii: "0") < 10 {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int64(bytes[i] &- UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                value = next
                i += 1
            }
            if i < count, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                throw fail("has a number that is not an integer")
            }
            guard i > digitsStart, !overflow else { i = start; throw fail("has a bad number") }
            if negative { return value }
            guard value != .min else { i = start; throw fail("has a bad number") }
            return -value
        }

        mutating func parseString() throws(CanonicalJSONError) -> String {
            i += 1
            let start = i
            // Fast path: no escapes, so the string is the bytes as they stand.
            var allBits: UInt8 = 0
            while i < count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    let s = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<i]), isASCII: allBits < 0x80)
                    i += 1
                    return s
                }
                if b == UInt8(ascii: "\\") || b < 0x20 { break }
                allBits |= b
                i += 1
            }
            var out = Array(bytes[start..<i])
            while true {
                guard i < count else { throw fail("has an unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; break }
                if b < 0x20 { throw fail("has a control character in a string") }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                i += 1
                guard i < count else { throw fail("has an unterminated string") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard i + 1 < count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw fail("has a lone surrogate")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("has a lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("has a lone surrogate") }
                    UTF8.encode(u) { out.append($0) }
                default: throw fail("has a bad escape")
                }
            }
            return try out.withUnsafeBufferPointer { buffer throws(CanonicalJSONError) in try makeString(buffer, isASCII: false) }
        }

        /// The string spelled by `utf8`, which must be valid UTF-8.
        func makeString(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) throws(CanonicalJSONError) -> String {
            // `String(decoding:)` is specialised for a byte buffer (`String(validating:)` is not,
            // and its generic path dominated the parse); it replaces bad sequences with U+FFFD,
            // so the bytes were valid exactly when the string spells them unchanged.
            var s = String(decoding: utf8, as: UTF8.self)
            if isASCII { return s }
            let unchanged = s.withUTF8 { out in
                out.count == utf8.count && (out.isEmpty || memcmp(out.baseAddress!, utf8.baseAddress!, out.count) == 0)
            }
            guard unchanged else { throw fail("has a string that is not UTF-8") }
            return s
        }

        mutating func hex4() throws(CanonicalJSONError) -> UInt32 {
            guard i + 4 <= count else { throw fail("has a bad \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                let d: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
                default: throw fail("has a bad \\u escape")
                }
                v = v << 4 | UInt32(d)
                i += 1
            }
            return v
        }
    }
}

/// JSON that could not be parsed, or is not canonical where it must be.
public struct CanonicalJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset where the problem was noticed.
    public var offset: Int
    public var reason: String
    public var description: String { "JSON \(reason) (byte \(offset))" }
}
