/// Small edit-distance checks for fuzzy word matching.
enum EditDistance {
    /// Whether `a` and `b` differ by at most one substitution, insertion, deletion or adjacent swap.
    static func withinOne(_ a: some Collection<UInt32>, _ b: some Collection<UInt32>) -> Bool {
        let x = Array(a), y = Array(b)
        if abs(x.count - y.count) > 1 { return false }
        var i = 0
        while i < x.count, i < y.count, x[i] == y[i] { i += 1 }
        if i == x.count && i == y.count { return true }
        if x.count == y.count {
            // One substitution, or a swap of two neighbours.
            if x[(i + 1)...] == y[(i + 1)...] { return true }
            if i + 1 < x.count, x[i] == y[i + 1], x[i + 1] == y[i], x[(i + 2)...] == y[(i + 2)...] { return true }
            return false
        }
        if x.count > y.count { return x[(i + 1)...] == y[i...] }
        return x[i...] == y[(i + 1)...]
    }
}
