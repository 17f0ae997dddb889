/// Edit distance for typo-tolerant name search.
enum EditDistance {
    /// Optimal-string-alignment distance (Levenshtein plus adjacent swaps, so
    /// `tartrazien` is one edit from `tartrazine`), or nil when it exceeds `limit`.
    ///
    /// Works on Unicode scalars of already-normalized names. Stops early once
    /// a whole row exceeds `limit`, so rejecting a far-off candidate is cheap.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        if abs(a.count - b.count) > limit { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        let width = b.count + 1
        var previous2 = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            var rowMin = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d = min(d, previous2[j - 2] + 1)
                }
                current[j] = d
                rowMin = min(rowMin, d)
            }
            if rowMin > limit { return nil }
            swap(&previous2, &previous)
            swap(&previous, &current)
        }
        let d = previous[b.count]
        return d <= limit ? d : nil
    }
}
