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
    public static func forEach(fd: Int32, _ body: (Int, Result<String, EcodexError>) throws -> Void) throws {
        var line: [UInt8] = []
        var skipping = false
        var number = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        func end() throws {
            number += 1
            if skipping {
                try body(number, .failure(.parse("This line is too long to be an ingredient list (over \(maximumLineBytes / 1000) kB). Give only the ingredients.")))
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
                throw EcodexError.parse("The ingredient texts cannot be read.", detail: String(cString: strerror(errno)))
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
    static func text(_ line: [UInt8]) -> Result<String, EcodexError> {
        var parsed = Result { () throws(CanonicalJSONError) in try JSONValue.parse(line) }
        if case .failure = parsed {
            // Bytes that are not UTF-8 are replaced (as `scan text -` does), then parsed again.
            let repaired = Array(String(decoding: line, as: UTF8.self).utf8)
            if repaired != line { parsed = Result { () throws(CanonicalJSONError) in try JSONValue.parse(repaired) } }
        }
        guard case .success(.object(let row)) = parsed else {
            let detail: String? = if case .failure(let e) = parsed { e.description } else { nil }
            return .failure(.parse("This line is not a JSON object. Write each text as {\"text\": \"...\"} on a line of its own.",
                                   detail: detail))
        }
        guard case .string(let text)? = row["text"] else {
            return .failure(.parse("This line has no \"text\" field. Write each text as {\"text\": \"...\"} on a line of its own."))
        }
        return .success(text)
    }
}
