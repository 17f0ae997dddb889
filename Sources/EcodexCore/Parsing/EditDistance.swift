/// Small edit-distance checks for fuzzy word matching.
enum EditDistance {
    /// Whether `x` and `y` differ by at most one substitution, insertion, deletion or adjacent swap.
    static func withinOne(_ x: [UInt32], _ y: ArraySlice<UInt32>) -> Bool {
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

    /// Whether `x` and `y` share their first and last letters, so any edit between them is inside the word.
    static func isInternalEdit(_ x: [UInt32], _ y: ArraySlice<UInt32>) -> Bool {
        guard let xf = x.first, let xl = x.last, let yf = y.first, let yl = y.last else { return false }
        return xf == yf && xl == yl && x.count > 2 && y.count > 2
    }
}
