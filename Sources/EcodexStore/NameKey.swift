import EcodexCore
import Foundation

/// The form in which the store compares additive names.
///
/// `normalize` folds each character as the parser does (`ScalarFolder`: diacritics
/// stripped, `ß` → `ss`, look-alike Cyrillic and Greek capitals to Latin, typographic
/// dashes and quotes to ASCII), lowercases, and collapses runs of whitespace into one
/// space, trimming the ends. Punctuation stays: `FD&C Yellow No. 5` becomes
/// `fd&c yellow no. 5`. The same function builds the store's `names.key` column and
/// normalizes queries, so both sides always agree.
public enum NameKey {
    public static func normalize(_ name: String) -> String {
        if let ascii = normalizeASCII(name) { return ascii }
        var folder = ScalarFolder()
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in name.unicodeScalars {
            for v in folder.fold(scalar.value) {
                if ScalarFolder.isSpace(v) || (Unicode.Scalar(v)?.properties.isWhitespace ?? false) {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if pendingSpace {
                    out.append(" ")
                    pendingSpace = false
                }
                if v >= 0x41 && v <= 0x5A {
                    out.append(Unicode.Scalar(v + 32)!)
                } else if let folded = Unicode.Scalar(v) {
                    out.append(contentsOf: String(folded).lowercased().unicodeScalars)
                }
            }
        }
        return String(out)
    }

    /// The same for pure ASCII input, on bytes: most queries and label names are ASCII,
    /// and Unicode property lookups cost more than the whole byte loop. Nil for non-ASCII input.
    private static func normalizeASCII(_ name: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        var pendingSpace = false
        for b in name.utf8 {
            guard b < 0x80 else { return nil }
            // Space, tab, newline, vertical tab, form feed, carriage return.
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            bytes.append(b >= 0x41 && b <= 0x5A ? b + 32 : b)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
