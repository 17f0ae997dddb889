/// Pass: the context rules keep or drop each candidate and build the mentions, with their
/// function, ingredient and confidence.
extension ParseSession {
    /// Applies the context rules and builds the mentions.
    mutating func emitMentions() {
        let merged = self.merged
        // Slip prefixes count when a class word governs them or a true code sits in a neighbouring item.
        var itemHasCode = [Bool](repeating: false, count: structure.items.count + 1)
        for cand in merged.map(\.best) where cand.isCode && !cand.needsContext {
            let k = structure.itemOfToken[cand.tokens.lowerBound]
            if k >= 0 { itemHasCode[Int(k)] = true }
        }
        func neighbourIsCode(_ cand: Candidate) -> Bool {
            let k = Int(structure.itemOfToken[cand.tokens.lowerBound])
            return k >= 0 && ((k > 0 && itemHasCode[k - 1]) || itemHasCode[k + 1])
        }

        var ingredientCache = [String?](repeating: nil, count: structure.items.count)
        var coveredItems = [Int8](repeating: -1, count: structure.items.count)
        var covered = [Bool](repeating: false, count: tokens.count)
        var mentionsPerItem = [Int](repeating: 0, count: structure.items.count + 1)
        for m in merged {
            for k in m.best.tokens { covered[k] = true }
            let k = Int(structure.itemOfToken[m.best.tokens.lowerBound])
            if k >= 0 { mentionsPerItem[k] += 1 }
        }
        let amongNutrients = nutrientListReadings(merged)
        for (i, m) in merged.enumerated() {
            var best = m.best
            let first = best.tokens.lowerBound
            let context = item(first)?.function != nil
            if m.parts.count == 1 {
                if best.contextOnly || amongNutrients[i],
                   !(item(first).map { ($0.directContext && !joinedToClassWord(first, $0)) || sameFunction(best.code, $0) } ?? false),
                   amongNutrients[i] || !joinedToAdditive(i, merged, amongNutrients) { continue }
                if best.contextOnly && !best.isCode && inNutritionDeclaration(best.tokens) { continue }
                // `gesättigte Fettsäuren`, `acides gras saturés`: a name qualified as saturated
                // is a line of the nutrition table, whatever the name's own marks.
                if !best.isCode && inNutritionDeclaration(best.tokens, window: saturationWindow(best),
                                                          is: Self.isSaturationWord) { continue }
                if best.needsContext && !neighbourIsCode(best) {
                    let vouched = best.spelledOut && functionKnown(best.code) ? (item(first).map { sameFunction(best.code, $0) } ?? false) : context
                    if !vouched { continue }
                }
                if best.compound, !(item(first).map { sameFunction(best.code, $0) } ?? false), !neighbourIsCode(best) { continue }
                if !best.isCode, !ocrNameHolds(best) { continue }
            }
            if !best.isCode, namesMicrobes(best.nameTokens) { continue }
            if !best.isCode, qualifiedByAnotherMetal(best.nameTokens) { continue }
            // `Tartaric Esters of …`: an acid's name right before an ester word names the ester.
            if !best.isCode, best.nameTokens.upperBound < tokens.count, tokens[best.nameTokens.upperBound].kind == .word,
               endsInEsterWord(best.nameTokens.upperBound) { continue }
            if !best.isCode, best.code.number == Self.fattyAcids, afterOfWord(best.nameTokens) { continue }
            if !best.isCode, best.code == Self.monoAndDiglycerides, followsEsterWord(best.nameTokens, covered: covered) {
                best.code = Self.glycerideEsters
            }
            if let it = item(first), it.inNutrientGroup,
               best.kind == .ins || (!best.isCode && !countsAmongNutrients(best)) { continue }
            var texts = m.parts.map { original($0.tokens) }
            let span = byteRange(best.tokens)
            let k = Int(structure.itemOfToken[first])
            var function: String?
            if k >= 0 {
                let it = structure.items[k]
                function = it.function == FunctionClasses.genericID ? nil : it.function
                // `Farbstoff E 150d`: the class word right before the additive is part of what named it.
                if let cls = it.classTokens, cls.upperBound <= first,
                   tokens[cls.upperBound..<first].allSatisfy({ $0.kind == .punct && $0.key == 0x3A }) {
                    texts.insert(original(cls), at: 0)
                }
            }
            var confidence = Self.baseConfidence(best)
            if let ocr, let mean = ocr.mean(over: span) { confidence *= mean }
            let ingredient = k >= 0
                ? ingredientText(item: k, covered: covered, cache: &ingredientCache, coveredItems: &coveredItems,
                                 fallback: texts.last ?? "", mentionsInItem: mentionsPerItem[k])
                : nil
            result.mentions.append(Mention(code: best.code, matchedText: texts, span: span, kind: best.kind,
                                           confidence: confidence, function: function, ingredient: ingredient))
        }
    }

    static func baseConfidence(_ c: Candidate) -> Double {
        switch c.kind {
        case .code: return 1
        case .ins: return 0.95
        case .name: return c.contextOnly ? 0.9 : 1
        case .fuzzy: return max(0.5, 0.85 - 0.1 * Double(c.edits - 1))
        case .repaired: return 0.75
        }
    }
}
