/// The ingredient a mention belongs to (`ContextPass`).
extension ParseSession {
    /// The ingredient an item's mention belongs to: the item's own text, or its header's or
    /// parent's when the item is nothing but additives (`Emulsifiers (E442, E476)`).
    func ingredientText(item k: Int, covered: [Bool], cache: inout [String?], coveredItems: inout [Int8],
                        fallback: String, mentionsInItem: Int) -> String? {
        func head(_ k: Int) -> String? {
            if let s = cache[k] { return s }
            let it = structure.items[k]
            let lo = it.tokens.lowerBound, hi = min(it.headEnd, it.tokens.upperBound)
            guard hi > lo else { return nil }
            // Ingredient names are short; a run-on line without separators is cut.
            let end = min(hi, lo + 24)
            var s = original(lo..<end)
            if s.utf8.last == 0x3A { s = String(s.dropLast()).trimmedSpaces() }
            cache[k] = s
            return s
        }
        let it = structure.items[k]
        let onlyAdditives: Bool
        if coveredItems[k] >= 0 {
            onlyAdditives = coveredItems[k] == 1
        } else {
            let lo = it.tokens.lowerBound, hi = min(it.headEnd, it.tokens.upperBound)
            var only = true
            var n = 0
            let cls = it.classTokens ?? 0..<0
            for j in lo..<hi where tokens[j].kind == .word && !covered[j] && !cls.contains(j) {
                n += 1
                if n > 64 || !Self.conjunctions.contains(tokens[j].key) { only = false; break }
            }
            coveredItems[k] = only ? 1 : 0
            onlyAdditives = only
        }
        if onlyAdditives {
            // A header whose scope ended (`colorant : E120, sucre, E500`) no longer names the ingredient.
            if let h = it.header, it.function != nil || structure.items[h].function == nil, let s = head(h) { return s }
            if let p = it.parent, let s = head(p) { return s }
            // `Farbstoff E 150d`: the class word names the ingredient.
            if let cls = it.classTokens { return original(cls) }
            // `lutein and tartrazine`: additives joined by a conjunction are separate ingredients.
            return mentionsInItem > 1 ? fallback : head(k)
        }
        return head(k)
    }
}

extension String {
    /// Trims ASCII and Unicode whitespace at both ends without Foundation's character sets.
    fileprivate func trimmedSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
