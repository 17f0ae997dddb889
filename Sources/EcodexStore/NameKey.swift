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
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        // Decomposing only when needed keeps the common ASCII case fast.
        let source = name.utf8.allSatisfy { $0 < 0x80 } ? name : name.decomposedStringWithCanonicalMapping
        for scalar in source.unicodeScalars {
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
}
