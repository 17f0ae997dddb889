import Foundation

/// The form in which the store compares additive names.
///
/// `normalize` lowercases, strips diacritics (`ä` → `a`, `é` → `e`), folds the
/// few Latin letters that have no decomposition (`ß` → `ss`, `æ` → `ae`,
/// `œ` → `oe`, `ø` → `o`, `ł` → `l`), and collapses runs of whitespace into
/// one space, trimming the ends. Punctuation stays: `FD&C Yellow No. 5`
/// becomes `fd&c yellow no. 5`. The same function builds the store's `names.key`
/// column and normalizes queries, so both sides always agree. The ingredient
/// parser has its own normalization for running label text.
public enum NameKey {
    public static func normalize(_ name: String) -> String {
        if let ascii = normalizeASCII(name) { return ascii }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in name.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            if scalar.isASCII {
                let v = scalar.value
                out.append(v >= 65 && v <= 90 ? Unicode.Scalar(v + 32)! : scalar)
                continue
            }
            switch scalar {
            case "ß", "ẞ": out.append(contentsOf: "ss".unicodeScalars)
            case "æ", "Æ": out.append(contentsOf: "ae".unicodeScalars)
            case "œ", "Œ": out.append(contentsOf: "oe".unicodeScalars)
            case "ø", "Ø": out.append("o")
            case "ł", "Ł": out.append("l")
            default: out.append(contentsOf: String(scalar).lowercased().unicodeScalars)
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
