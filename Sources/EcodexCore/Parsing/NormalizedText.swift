import Foundation

/// Ingredient text folded for matching, with a map back to the original UTF-8 offsets.
///
/// Folding uppercases, strips diacritics, collapses whitespace (and control
/// characters) to one space, folds look-alikes that labels and OCR produce
/// (Cyrillic `е`, full-width digits, typographic dashes and quotes) and rejoins
/// words hyphenated across a line break. Each folded scalar remembers the
/// original byte range it came from, so a match can be shown where it was found.
struct NormalizedText {
    /// Folded scalar values.
    var scalars: [UInt32] = []
    /// UTF-8 offset in the original text where the source of each scalar starts.
    var starts: [Int32] = []
    /// UTF-8 offset in the original text where the source of each scalar ends.
    var ends: [Int32] = []
    /// Indexes of the scalars that begin a line of the original text (a newline before them),
    /// ascending. A hyphenated break rejoined into one word begins none.
    var lineStarts: [Int32] = []

    /// Whether the scalar at `i` begins a line.
    func startsLine(_ i: Int32) -> Bool {
        var lo = 0, hi = lineStarts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if lineStarts[mid] < i { lo = mid + 1 } else { hi = mid }
        }
        return lo < lineStarts.count && lineStarts[lo] == i
    }

    init(_ text: String) {
        var text = text
        text.withUTF8 { build($0) }
    }

    /// Decodes UTF-8 by hand: label text is mostly ASCII, which takes a branch-only path.
    private mutating func build(_ b: UnsafeBufferPointer<UInt8>) {
        var folder = ScalarFolder()
        let n = b.count
        scalars.reserveCapacity(n)
        starts.reserveCapacity(n)
        ends.reserveCapacity(n)
        var i = 0
        var pendingSpace = false
        var pendingSpaceStart: Int32 = 0
        var pendingNewline = false
        var prevRaw: UInt32 = 0
        while i < n {
            let (v, len) = Self.decode(b, at: i)
            let next = i + len
            if ScalarFolder.isSpace(v) {
                if !pendingSpace { pendingSpaceStart = Int32(i) }
                pendingSpace = true
                if v == 0x0A || v == 0x0D { pendingNewline = true }
                prevRaw = 0x20
                i = next
                continue
            }
            // `leci-` / `thine`: a hyphen that ends a line inside a lowercase word
            // is a typesetting break, not part of the word.
            if v == 0x2D || v == 0xAD, let last = scalars.last, ScalarFolder.isLetterValue(last),
               let resume = Self.lineBreakContinuation(b, after: next) {
                i = resume
                continue
            }
            if pendingSpace {
                if !scalars.isEmpty {
                    scalars.append(0x20); starts.append(pendingSpaceStart); ends.append(Int32(i))
                    if pendingNewline { lineStarts.append(Int32(scalars.count)) }
                }
                pendingSpace = false
                pendingNewline = false
            }
            if v < 0x80 {
                scalars.append(v >= 0x61 && v <= 0x7A ? v - 0x20 : v)
                starts.append(Int32(i)); ends.append(Int32(next))
            } else if v == 0x3BC, Self.isGreek(prevRaw) || (next < n && Self.isGreek(Self.decode(b, at: next).0)) {
                // Greek small mu inside a Greek word is the letter (`μηλικό`, folded as its capital
                // `Μ`, a look-alike of `M`); elsewhere it is the micro sign (`μg`), as U+00B5 is.
                scalars.append(0x4D); starts.append(Int32(i)); ends.append(Int32(next))
            } else {
                for f in folder.fold(v) {
                    if f == 0x20 && scalars.last == 0x20 { continue }
                    scalars.append(f); starts.append(Int32(i)); ends.append(Int32(next))
                }
            }
            prevRaw = v
            i = next
        }
    }

    /// Greek and Coptic, and Greek Extended (accented polytonic letters).
    private static func isGreek(_ v: UInt32) -> Bool { (0x370...0x3FF).contains(v) || (0x1F00...0x1FFF).contains(v) }

    @inline(__always)
    private static func decode(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b0 = UInt32(b[i])
        if b0 < 0x80 { return (b0, 1) }
        // Swift strings hold valid UTF-8, so continuation bytes are present.
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(b[i + 1]) & 0x3F, 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | (UInt32(b[i + 1]) & 0x3F) << 6 | UInt32(b[i + 2]) & 0x3F, 3)
        }
        return ((b0 & 0x07) << 18 | (UInt32(b[i + 1]) & 0x3F) << 12 | (UInt32(b[i + 2]) & 0x3F) << 6
                | UInt32(b[i + 3]) & 0x3F, 4)
    }

    /// The offset after the whitespace of a hyphenated line break, when a lowercase letter follows.
    private static func lineBreakContinuation(_ b: UnsafeBufferPointer<UInt8>, after start: Int) -> Int? {
        var j = start
        var sawNewline = false
        while j < b.count, j - start <= 16 {
            let (v, len) = decode(b, at: j)
            if !ScalarFolder.isSpace(v) { break }
            if v == 0x0A || v == 0x0D { sawNewline = true }
            j += len
        }
        guard sawNewline, j < b.count else { return nil }
        let (v, _) = decode(b, at: j)
        guard let s = Unicode.Scalar(v), s.properties.isLowercase else { return nil }
        // `Mono-` / `und Diglyceride`, `mono-` / `e di-gliceridi`: a word that shares its tail with
        // the next one (a suspended hyphen) before `and`, not a word broken across the line.
        var word: [UInt32] = []
        var k = j
        while k < b.count, word.count <= 4, b[k] >= 0x61 && b[k] <= 0x7A { word.append(UInt32(b[k]) - 0x20); k += 1 }
        if k < b.count, b[k] == 0x20 || b[k] == 0x0A, suspendedBefore.contains(Token.hash(word)) { return nil }
        return j
    }

    /// `and`/`or` after a suspended hyphen (`Mono- und Diglyceride`): the parser's `andWords`, and
    /// Swedish `och` and Czech/Slovak `a`, which only here cannot be the English article.
    private static let suspendedBefore: Set<UInt64> = Set(ParseSession.andWords + ["OCH", "A"].map(Token.hash))
}

/// Folds one Unicode scalar to zero or more uppercase, diacritic-free scalars: the one folding
/// of label text, used by the parser and, lowercased, by the store's name keys (`NameKey`).
public struct ScalarFolder {
    private var cache: [UInt32: [UInt32]] = [:]

    public init() {}

    @inline(__always)
    public static func isSpace(_ v: UInt32) -> Bool {
        if v <= 0x20 || v == 0x7F { return true }
        if v < 0x80 { return false }
        if v <= 0x9F { return true }
        return v == 0xA0 || v == 0x1680 || (0x2000...0x200B).contains(v) || v == 0x2028 || v == 0x2029
            || v == 0x202F || v == 0x205F || v == 0x3000 || v == 0xFEFF
    }

    /// Whether a folded value counts as part of a word (letters and digits, any script).
    static func isLetterValue(_ v: UInt32) -> Bool {
        if v < 0x80 {
            return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
        }
        return Unicode.Scalar(v)?.properties.isAlphabetic ?? false
    }

    /// Folds a scalar value (ASCII letters to upper case).
    public mutating func fold(_ v: UInt32) -> [UInt32] {
        if v < UInt32(Self.table.count) { return Self.table[Int(v)] }
        if v >= 0x2000 && v < 0x2100 { return Self.punctuationTable[Int(v - 0x2000)] }
        if let hit = cache[v] { return hit }
        let result = Unicode.Scalar(v).map(Self.foldSlow) ?? []
        cache[v] = result
        return result
    }

    /// Foldings of Latin, Greek and Cyrillic, computed once: names and labels live there.
    private static let table: [[UInt32]] = (0..<UInt32(0x530)).map { v in
        if v < 0x80 { return [v >= 0x61 && v <= 0x7A ? v - 0x20 : v] }
        return Unicode.Scalar(v).map(foldSlow) ?? []
    }

    /// General Punctuation and currency signs: typographic quotes and dashes are common on labels.
    private static let punctuationTable: [[UInt32]] = (UInt32(0x2000)..<0x2100).map { v in
        Unicode.Scalar(v).map(foldSlow) ?? []
    }

    private static func foldSlow(_ s: Unicode.Scalar) -> [UInt32] {
        let v = s.value
        // Full-width forms (`Ｅ３３０`) are the ASCII block shifted.
        if (0xFF01...0xFF5E).contains(v) {
            let a = v - 0xFEE0
            return [(a >= 0x61 && a <= 0x7A) ? a - 0x20 : a]
        }
        if let special = specials[v] { return special }
        // Digits of other scripts (Arabic-Indic `٣٣٠`, Devanagari `३३०`) are the ASCII digits.
        if s.properties.generalCategory == .decimalNumber, let d = s.properties.numericValue, d >= 0, d <= 9 {
            return [0x30 + UInt32(d)]
        }
        if s.properties.generalCategory == .nonspacingMark || s.properties.generalCategory == .enclosingMark {
            return []
        }
        if s.properties.generalCategory == .format || s.properties.generalCategory == .control { return [] }
        let upper = String(s).uppercased().decomposedStringWithCanonicalMapping
        var out: [UInt32] = []
        for u in upper.unicodeScalars {
            let cat = u.properties.generalCategory
            if cat == .nonspacingMark || cat == .spacingMark || cat == .enclosingMark { continue }
            out.append(lookalikes[u.value] ?? u.value)
        }
        return out
    }

    private static func ascii(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// Characters whose folding is not a decomposition: ligatures, dashes, quotes, marks.
    private static let specials: [UInt32: [UInt32]] = {
        var t: [UInt32: [UInt32]] = [
            0xDF: ascii("SS"), 0x1E9E: ascii("SS"), 0xC6: ascii("AE"), 0xE6: ascii("AE"),
            0x152: ascii("OE"), 0x153: ascii("OE"), 0xD8: ascii("O"), 0xF8: ascii("O"),
            0x141: ascii("L"), 0x142: ascii("L"), 0x110: ascii("D"), 0x111: ascii("D"),
            0x131: ascii("I"), 0x17F: ascii("S"), 0xDE: ascii("TH"), 0xFE: ascii("TH"),
            0xFB00: ascii("FF"), 0xFB01: ascii("FI"), 0xFB02: ascii("FL"),
            0x2116: ascii("NO"), 0xBA: ascii("°"), 0x2DA: ascii("°"),
            0xB5: ascii("U"), 0x3BC: ascii("U"),
            0xAD: [],
        ]
        // Dashes and minus signs read as `-`.
        for d: UInt32 in [0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xFE63] { t[d] = [0x2D] }
        // Typographic apostrophes and primes read as `'`.
        for q: UInt32 in [0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0xB4, 0x2BC] { t[q] = [0x27] }
        for q: UInt32 in [0x201C, 0x201D, 0x201E, 0x201F, 0xAB, 0xBB, 0x2033] { t[q] = [0x22] }
        // Superscripts and daggers are footnote marks, not digits of a code.
        for f: UInt32 in [0xB9, 0xB2, 0xB3, 0x2070, 0x2074, 0x2075, 0x2076, 0x2077, 0x2078, 0x2079,
                          0x2020, 0x2021] { t[f] = [0x2A] }
        return t
    }()

    /// Cyrillic and Greek capitals that look like Latin ones: labels and OCR mix them
    /// into codes (`е322`). Folding both text and names keeps Russian names consistent.
    private static let lookalikes: [UInt32: UInt32] = [
        0x410: 0x41, 0x412: 0x42, 0x415: 0x45, 0x41A: 0x4B, 0x41C: 0x4D, 0x41D: 0x48, 0x41E: 0x4F,
        0x420: 0x50, 0x421: 0x43, 0x422: 0x54, 0x423: 0x59, 0x425: 0x58, 0x406: 0x49, 0x405: 0x53,
        0x408: 0x4A, 0x401: 0x45,
        0x391: 0x41, 0x392: 0x42, 0x395: 0x45, 0x396: 0x5A, 0x397: 0x48, 0x399: 0x49, 0x39A: 0x4B,
        0x39C: 0x4D, 0x39D: 0x4E, 0x39F: 0x4F, 0x3A1: 0x50, 0x3A4: 0x54, 0x3A5: 0x59, 0x3A7: 0x58,
    ]
}
