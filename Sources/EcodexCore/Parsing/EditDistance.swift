/// Small edit-distance checks for fuzzy word matching.
public enum EditDistance {
    /// Whether `x` and `y` differ by at most one substitution, insertion, deletion or adjacent swap.
    static func withinOne(_ x: UnsafeBufferPointer<UInt32>, _ y: ArraySlice<UInt32>) -> Bool {
        let m = x.count, n = y.count, b = y.startIndex
        if abs(m - n) > 1 { return false }
        var i = 0
        while i < m, i < n, x[i] == y[b + i] { i += 1 }
        if i == m && i == n { return true }
        /// Whether x[from...] equals y[from2...] to their ends.
        func tailsEqual(_ from: Int, _ from2: Int) -> Bool {
            if m - from != n - from2 { return false }
            var a = from, c = from2
            while a < m {
                if x[a] != y[b + c] { return false }
                a += 1; c += 1
            }
            return true
        }
        if m == n {
            // One substitution, or a swap of two neighbours.
            if tailsEqual(i + 1, i + 1) { return true }
            return i + 1 < m && x[i] == y[b + i + 1] && x[i + 1] == y[b + i] && tailsEqual(i + 2, i + 2)
        }
        return m > n ? tailsEqual(i + 1, i) : tailsEqual(i, i + 1)
    }

    /// Edits between `x` and `y` (substitutions, insertions, deletions and swaps of two
    /// neighbours, each one edit: `tartrazien` is one from `tartrazine`), or `limit + 1` once it
    /// is sure to exceed `limit`. The one distance of Ecodex: the parser and name search use it.
    public static func bounded(_ x: [UInt32], _ y: [UInt32], limit: Int) -> Int {
        if abs(x.count - y.count) > limit { return limit + 1 }
        if x.isEmpty || y.isEmpty { return min(max(x.count, y.count), limit + 1) }
        var beforePrevious = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var rowMin = i
            for j in 1...y.count {
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d = min(d, beforePrevious[j - 2] + 1) }
                current[j] = d
                rowMin = min(rowMin, d)
            }
            if rowMin > limit { return limit + 1 }
            swap(&beforePrevious, &previous)
            swap(&previous, &current)
        }
        return min(previous[y.count], limit + 1)
    }

    /// `bounded` for two strings, compared by Unicode scalars as they are.
    public static func bounded(_ x: String, _ y: String, limit: Int) -> Int {
        bounded(x.unicodeScalars.map(\.value), y.unicodeScalars.map(\.value), limit: limit)
    }

    /// Whether `x` and `y` share their first and last letters, so any edit between them is inside the word.
    static func isInternalEdit(_ x: UnsafeBufferPointer<UInt32>, _ y: ArraySlice<UInt32>) -> Bool {
        guard let xf = x.first, let xl = x.last, let yf = y.first, let yl = y.last else { return false }
        return xf == yf && xl == yl && x.count > 2 && y.count > 2
    }

    /// Whether `x` and `y` differ by one letter lost or added at their end or, when `firstToo`, at
    /// their start, the shorter keeping `minLength` letters or more (`citriqu` / `citrique`,
    /// `cide` / `acide`, `monoo` / `mono`): print cut at a crop's edge, or a letter read twice.
    static func isEdgeIndel(_ x: UnsafeBufferPointer<UInt32>, _ y: ArraySlice<UInt32>, firstToo: Bool,
                            minLength: Int) -> Bool {
        let m = x.count, n = y.count, b = y.startIndex, k = min(m, n)
        guard abs(m - n) == 1, k >= minLength else { return false }
        if (0..<k).allSatisfy({ x[$0] == y[b + $0] }) { return true }
        guard firstToo else { return false }
        return m > n ? (0..<k).allSatisfy { x[$0 + 1] == y[b + $0] } : (0..<k).allSatisfy { y[b + $0 + 1] == x[$0] }
    }

    /// Whether `x` and `y` differ only in their first letter, and those two letters are ones OCR
    /// reads for each other at a word's start in small print (`quar gum`, `hohlensäure`,
    /// `Gitrate`, `iécithine`). Other first-letter edits make other words (`cólico` / `fólico`),
    /// so only these shape pairs count.
    static func isFirstLetterShapeSlip(_ x: UnsafeBufferPointer<UInt32>, _ y: ArraySlice<UInt32>) -> Bool {
        guard x.count == y.count, x.count >= 5, let xf = x.first, let yf = y.first, xf != yf,
              firstLetterSlips.contains(pairKey(xf, yf)) else { return false }
        let b = y.startIndex
        for i in 1..<x.count where x[i] != y[b + i] { return false }
        return true
    }

    /// Whether `x` and `y` differ only in their last letter, and those two are letters OCR reads
    /// for each other at the end of a long word in small print: `natriumbenzoaal`,
    /// `Kaliumsorbal`, `cyclamaal` for the `-at`/`-aat` of salts. Other last-letter edits make other
    /// words (`carbonates` / `carbonated`), so only these shape pairs count, from 8 letters on.
    static func isLastLetterShapeSlip(_ x: UnsafeBufferPointer<UInt32>, _ y: ArraySlice<UInt32>) -> Bool {
        guard x.count == y.count, x.count >= 8, let xl = x.last, let yl = y.last, xl != yl,
              lastLetterSlips.contains(pairKey(xl, yl)) else { return false }
        let b = y.startIndex
        for i in 0..<(x.count - 1) where x[i] != y[b + i] { return false }
        return true
    }

    /// Letter pairs OCR confuses at a long word's end (folded to capitals): `t`/`l`, `t`/`f`,
    /// `t`/`i`, `l`/`i`, `n`/`m` (`Sojalecithim`), `e`/`c` (`Kohlensäurc`), `E`/`F` (`CHLORIDF`).
    private static let lastLetterSlips: Set<UInt64> = {
        var set = Set<UInt64>()
        for g in ["TL", "TF", "TI", "LI", "NM", "EC", "EF"] {
            let v = g.unicodeScalars.map(\.value)
            set.insert(pairKey(v[0], v[1]))
        }
        return set
    }()

    /// Letter pairs OCR confuses at a word's start (folded to capitals): `g`/`q`, `c`/`G`, `c`/`e`,
    /// `o`/`c`, `h`/`k`, `i`/`l`.
    private static let firstLetterSlips: Set<UInt64> = {
        var set = Set<UInt64>()
        for g in ["GQ", "CG", "CE", "OC", "HK", "IL"] {
            let v = g.unicodeScalars.map(\.value)
            set.insert(pairKey(v[0], v[1]))
        }
        return set
    }()

    /// Whether `x` and `y` differ only in their first or their last letter, and those two are
    /// letters OCR confuses by shape (`seml` / `semi`, `Lecithim` / `Lecithin`). Used inside
    /// a name already begun, where the words before it vouch for the word's place.
    static func isEndShapeSlip(_ x: UnsafeBufferPointer<UInt32>, _ y: ArraySlice<UInt32>) -> Bool {
        guard x.count == y.count, x.count >= 2 else { return false }
        let b = y.startIndex, n = x.count
        let firstDiffers = x[0] != y[b], lastDiffers = x[n - 1] != y[b + n - 1]
        guard firstDiffers != lastDiffers else { return false }
        for i in 1..<(n - 1) where x[i] != y[b + i] { return false }
        return firstDiffers ? shapeConfusable.contains(pairKey(x[0], y[b]))
            : shapeConfusable.contains(pairKey(x[n - 1], y[b + n - 1]))
    }

    /// Whether reading a word whose element stems are `observed` (`elements(in:)`) as the known
    /// word `known` would change the element of a salt: the word spells an element that `known`
    /// lacks, and `known` one that the word lacks. Norwegian `kalsiumlaktat` (calcium) is one
    /// letter from Danish `kaliumlaktat` (potassium), German `Kalziumlaktat` and Croatian
    /// `kalcijev` likewise: a slip never makes one salt another.
    static func swapsElement<K: RandomAccessCollection<UInt32>>(_ known: K, observed o: UInt8) -> Bool where K.Index == Int {
        guard o != 0 else { return false }
        let k = elements(in: known)
        return o & ~k != 0 && k & ~o != 0
    }

    /// Element stems in label languages (folded capitals), one bit per element: potassium,
    /// calcium, sodium, magnesium, ammonium.
    private static let elementStems: [(stem: [UInt32], bit: UInt8)] = {
        let table: [(String, UInt8)] = [
            ("KALIUM", 1), ("KALIJ", 1), ("KALIO", 1), ("POTASS", 1), ("POTASIO", 1), ("POTASU", 1), ("POTASIU", 1), ("DRASEL", 1),
            ("CALCI", 2), ("KALCI", 2), ("KALSI", 2), ("KALZI", 2), ("KALTSI", 2), ("WAPN", 2), ("VAPEN", 2),
            ("SODIU", 4), ("SODIO", 4), ("SODU", 4), ("SODN", 4), ("NATRI", 4),
            ("MAGNES", 8), ("MAGNEZ", 8),
            ("AMMONI", 16), ("AMONI", 16),
        ]
        return table.map { (Array($0.0.unicodeScalars.map(\.value)), $0.1) }
    }()

    /// The elements whose stems `word` spells, one bit each (`elementStems`); 0 for none.
    static func elements<W: RandomAccessCollection<UInt32>>(in word: W) -> UInt8 where W.Index == Int {
        var bits: UInt8 = 0
        let n = word.count, b = word.startIndex
        guard n >= 4 else { return 0 }
        for (stem, bit) in elementStems where bits & bit == 0 && stem.count <= n {
            var i = 0
            search: while i + stem.count <= n {
                var j = 0
                while j < stem.count, word[b + i + j] == stem[j] { j += 1 }
                if j == stem.count { bits |= bit; break search }
                i += 1
            }
        }
        return bits
    }

    /// Whether a one-letter substitution between `x` and `y` is a plausible slip: letters OCR
    /// confuses by shape, or neighbours on a keyboard. Insertions, deletions and swaps pass.
    ///
    /// `natriumcitraat` is one substitution from `natriumnitraat`, but `c` for `n` is neither
    /// a shape nor a key slip; `tartrazime` (`m` for `n`) is both.
    static func isPlausibleSlip(_ x: UnsafeBufferPointer<UInt32>, _ y: ArraySlice<UInt32>) -> Bool {
        guard x.count == y.count else { return true }
        let b = y.startIndex
        var diffs = 0
        var pair: (UInt32, UInt32) = (0, 0)
        for i in 0..<x.count where x[i] != y[b + i] {
            diffs += 1
            if diffs > 1 { return true }
            pair = (x[i], y[b + i])
        }
        // Two differences at equal length are a swap of neighbours.
        guard diffs == 1 else { return true }
        return confusable.contains(pairKey(pair.0, pair.1))
    }

    /// Whether `x` and `y` differ by exactly two substitutions inside the word, each a pair of
    /// letters OCR confuses by shape (`bicorbonote` for `bicarbonate`). Keyboard neighbours do not count:
    /// two typing slips in one word are rare, two misread round letters on a poor photo are not.
    static func isTwoShapeSlips(_ x: UnsafeBufferPointer<UInt32>, _ y: ArraySlice<UInt32>) -> Bool {
        guard x.count == y.count, isInternalEdit(x, y) else { return false }
        let b = y.startIndex
        var diffs = 0
        for i in 0..<x.count where x[i] != y[b + i] {
            diffs += 1
            if diffs > 2 || !shapeConfusable.contains(pairKey(x[i], y[b + i])) { return false }
        }
        return diffs == 2
    }

    private static func pairKey(_ p: UInt32, _ q: UInt32) -> UInt64 {
        UInt64(min(p, q)) << 32 | UInt64(max(p, q))
    }

    /// Letter pairs OCR confuses by shape: round letters, strokes, arches, bowls, and the digit look-alikes.
    private static let shapeConfusable: Set<UInt64> = {
        var set = Set<UInt64>()
        for g in ["AEOCGQDU0", "IL1|TJF!", "MNHRUWV", "BR8PE", "S5Z2", "G6", "A4", "Y7V", "KX", "RP", "CE", "AO", "BD", "EF"] {
            let v = g.unicodeScalars.map(\.value)
            for i in v.indices { for j in v.indices where i != j { set.insert(pairKey(v[i], v[j])) } }
        }
        return set
    }()

    /// Letter pairs that OCR confuses by shape or that sit next to each other on QWERTY,
    /// QWERTZ and AZERTY keyboards.
    private static let confusable: Set<UInt64> = {
        var set = Set<UInt64>()
        func add(_ group: String) {
            let v = group.unicodeScalars.map(\.value)
            for i in v.indices { for j in v.indices where i != j { set.insert(pairKey(v[i], v[j])) } }
        }
        set.formUnion(shapeConfusable)
        // Keys next to each other, row by row and across rows.
        let rows = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM", "QWERTZUIOP", "YXCVBNM", "AZERTYUIOP", "QSDFGHJKLM", "WXCVBN"]
        for r in rows {
            let v = r.unicodeScalars.map(\.value)
            for i in 1..<v.count { set.insert(pairKey(v[i - 1], v[i])) }
        }
        let grid = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"]
        for r in 1..<grid.count {
            let up = grid[r - 1].unicodeScalars.map(\.value), down = grid[r].unicodeScalars.map(\.value)
            for i in down.indices {
                for j in [i, i + 1] where j < up.count { set.insert(pairKey(down[i], up[j])) }
            }
        }
        // Letters with marks lose them in folding, and small print blurs the mark into the letter:
        // `ä` of `-säure` reads as `i`, `d` or `h` (`Citronensiure`), `ü`/`ö` as `ii`, `6`.
        for pair in ["AI", "AH", "AD", "OD"] { add(pair) }
        return set
    }()
}
