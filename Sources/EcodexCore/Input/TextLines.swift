#if canImport(Glibc)
import Glibc
#endif

/// Ingredient texts in JSON Lines, one `{"text": "..."}` object a line (the shape of the
/// Open Food Facts export and of `RuleCoverage.texts(jsonLines:)`; other fields are ignored),
/// read one line at a time from a descriptor so that a file or a pipe of any length costs
/// memory for one line only (`scan text --jsonl`).
public enum TextLines {
    /// Longest line kept, in bytes: room for a text at `ScanPipeline.maxTextBytes` with
    /// every character escaped. A longer line is skipped without being kept, and its
    /// failure given in its place.
    public static let maximumLineBytes = 8 * ScanPipeline.maxTextBytes

    /// Calls `body` with the 1-based number and the text (or the failure) of every line
    /// that is not blank, in order, until the end of `fd` or until `body` throws.
    ///
    /// - Throws: `parse_error` when `fd` cannot be read; whatever `body` throws.
    public static func forEach(fd: Int32, _ body: (Int, Result<String, TextLineError>) throws -> Void) throws {
        var line: [UInt8] = []
        var skipping = false
        var number = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        func end() throws {
            number += 1
            if skipping {
                try body(number, .failure(.tooLong(limit: maximumLineBytes)))
            } else if line.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }) {
                try body(number, text(line))
            }
            line.removeAll(keepingCapacity: line.count <= 1 << 16)
            skipping = false
        }
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TextLineError.unreadable(reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            var start = 0
            while start < n {
                let newline = chunk[start..<n].firstIndex(of: 0x0A)
                let stop = newline ?? n
                if !skipping {
                    if line.count + (stop - start) > maximumLineBytes {
                        skipping = true
                        line.removeAll()
                    } else {
                        line.append(contentsOf: chunk[start..<stop])
                    }
                }
                if newline != nil { try end() }
                start = stop + 1
            }
        }
        if skipping || !line.isEmpty { try end() }
    }

    /// The `text` of one JSON line; invalid UTF-8 inside the string is replaced, never fatal.
    static func text(_ line: [UInt8]) -> Result<String, TextLineError> {
        var parsed = Result { () throws(CanonicalJSONError) in try JSONValue.parse(line) }
        if case .failure = parsed {
            // Bytes that are not UTF-8 are replaced (as `scan text -` does), then parsed again.
            let repaired = Array(String(decoding: line, as: UTF8.self).utf8)
            if repaired != line { parsed = Result { () throws(CanonicalJSONError) in try JSONValue.parse(repaired) } }
        }
        guard case .success(.object(let row)) = parsed else {
            let detail: String? = if case .failure(let e) = parsed { e.description } else { nil }
            return .failure(.notAnObject(detail: detail))
        }
        guard case .string(let text)? = row["text"] else {
            return .failure(.noTextField)
        }
        return .success(text)
    }
}

/// Why one line of ingredient texts gave no text, or the texts could not be read at all.
/// Every case is a `parse_error`.
public enum TextLineError: ClassifiedError, Equatable {
    /// A line longer than `limit` bytes, skipped unread.
    case tooLong(limit: Int)
    /// Not a JSON object (`detail`: the JSON parser's reason).
    case notAnObject(detail: String?)
    /// A JSON object without a string `text`.
    case noTextField
    /// Reading the file or pipe failed.
    case unreadable(reason: String)

    public var errorClass: ErrorClass { .parse }

    public var description: String {
        switch self {
        case .tooLong(let limit): "line over \(limit) bytes"
        case .notAnObject(let detail): "not a JSON object" + (detail.map { ": \($0)" } ?? "")
        case .noTextField: "no \"text\" string field"
        case .unreadable(let reason): "read: \(reason)"
        }
    }
}
