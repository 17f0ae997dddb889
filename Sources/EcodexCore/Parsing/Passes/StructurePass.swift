/// Pass: which items name additives, then functions and context per item.
extension ParseSession {
    /// Which items name additives, then functions and context per item.
    mutating func resolveStructure() {
        codeHits.removeAll { negated[$0.tokens.lowerBound] }
        nameHits.removeAll { negated[$0.tokens.lowerBound] }
        let splits = joinedClassWords()
        if !splits.isEmpty {
            structure = IngredientStructure(tokens: tokens, splitBefore: splits)
            for h in classHits { structure.noteClass(at: h.tokens, function: h.function, nutrient: h.nutrient, weak: h.weak) }
        }
        for h in codeHits where !h.needsContext { structure.noteAdditive(at: h.tokens.lowerBound) }
        for n in nameHits where !n.contextOnly { structure.noteAdditive(at: n.tokens.lowerBound) }
        // `colours: caramel, paprika extract`: an ordinary-food name of its header's own function
        // keeps the header's list going, as a plain name does (before, the list ended at `caramel`
        // and `paprika extract`, a food name too, lost its colour).
        let functions = self.functions
        for n in nameHits where n.contextOnly {
            let k = Int(structure.itemOfToken[n.tokens.lowerBound])
            guard k >= 0, let h = structure.items[k].header, let f = structure.items[h].ownFunction,
                  n.code.lineage.lazy.compactMap({ functions[$0] }).first?.contains(f) == true else { continue }
            structure.noteAdditive(at: n.tokens.lowerBound)
        }
        structure.liftTrailingFunctions(tokens: tokens)
        for (k, t) in tokens.enumerated() where t.isDigits && (3...4).contains(t.length) && !consumed[k] {
            let it = structure.itemOfToken[k]
            if it >= 0, structure.items[Int(it)].tokens.lowerBound == k { structure.noteAdditive(at: k) }
        }
        structure.resolve()
    }

    /// `and` (or ` & `) before a second class word of another function, after something that follows the
    /// item's first (`Colour (160a) and Acidity Regulator (330)`, `acidulant E330 et correcteur
    /// d'acidité E331`): the item splits there, so each class word governs its own part.
    /// `Emulgatoren und Stabilisatoren (E407)` stays one item: nothing stands between them.
    func joinedClassWords() -> Set<Int> {
        var splits = Set<Int>()
        for h in classHits where h.function != nil && !h.nutrient {
            let a = h.tokens.lowerBound - 1
            guard a > 0, isAnd(a),
                  structure.itemOfToken[a] == structure.itemOfToken[h.tokens.lowerBound], let it = item(a),
                  let first = it.classTokens, first.upperBound < a, it.ownFunction != h.function else { continue }
            splits.insert(a)
        }
        return splits
    }
}
