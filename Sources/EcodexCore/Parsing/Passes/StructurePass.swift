/// Pass: which items name additives, then functions and context per item.
extension ParseSession {
    /// Which items name additives, then functions and context per item.
    mutating func resolveStructure() {
        codeHits.removeAll { negated[$0.tokens.lowerBound] }
        nameHits.removeAll { negated[$0.tokens.lowerBound] }
        let splits = joinedClassWords()
        if !splits.isEmpty {
            structure = IngredientStructure(tokens: tokens, splitBefore: splits)
            for hit in classHits {
                structure.noteClass(at: hit.tokens, function: hit.function, nutrient: hit.nutrient, weak: hit.weak)
            }
        }
        for hit in codeHits where !hit.needsContext { structure.noteAdditive(at: hit.tokens.lowerBound) }
        for name in nameHits where !name.contextOnly { structure.noteAdditive(at: name.tokens.lowerBound) }
        // `colours: caramel, paprika extract`: an ordinary-food name of its header's own function
        // keeps the header's list going, as a plain name does (before, the list ended at `caramel`
        // and `paprika extract`, a food name too, lost its colour).
        let functions = self.functions
        for name in nameHits where name.contextOnly {
            let itemIndex = Int(structure.itemOfToken[name.tokens.lowerBound])
            guard itemIndex >= 0, let header = structure.items[itemIndex].header,
                  let headerFunction = structure.items[header].ownFunction,
                  name.code.lineage.lazy.compactMap({ functions[$0] }).first?.contains(headerFunction) == true
            else { continue }
            structure.noteAdditive(at: name.tokens.lowerBound)
        }
        structure.liftTrailingFunctions(tokens: tokens)
        for (position, token) in tokens.enumerated()
        where token.isDigits && (3...4).contains(token.length) && !consumed[position] {
            let itemIndex = structure.itemOfToken[position]
            if itemIndex >= 0, structure.items[Int(itemIndex)].tokens.lowerBound == position {
                structure.noteAdditive(at: position)
            }
        }
        structure.resolve()
    }

    /// `and` (or ` & `) before a second class word of another function, after something that follows the
    /// item's first (`Colour (160a) and Acidity Regulator (330)`, `acidulant E330 et correcteur
    /// d'acidité E331`): the item splits there, so each class word governs its own part.
    /// `Emulgatoren und Stabilisatoren (E407)` stays one item: nothing stands between them.
    func joinedClassWords() -> Set<Int> {
        var splits = Set<Int>()
        for hit in classHits where hit.function != nil && !hit.nutrient {
            let andToken = hit.tokens.lowerBound - 1
            guard andToken > 0, isAnd(andToken),
                  structure.itemOfToken[andToken] == structure.itemOfToken[hit.tokens.lowerBound],
                  let governing = item(andToken), let first = governing.classTokens, first.upperBound < andToken,
                  governing.ownFunction != hit.function else { continue }
            splits.insert(andToken)
        }
        return splits
    }
}
