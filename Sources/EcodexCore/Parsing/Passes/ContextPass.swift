/// Pass: the context rules keep or drop each candidate and build the mentions, with their
/// function, ingredient and confidence.
extension ParseSession {
    /// Where each candidate stands, shared by the context rules of one text.
    struct ContextLayout {
        /// Items that hold a code needing no context (one extra slot past the last item).
        var itemHasCode: [Bool]
        /// Tokens some candidate covers.
        var covered: [Bool]
        /// Candidates per item (one extra slot past the last item).
        var mentionsPerItem: [Int]
        /// Per candidate: read as a nutrient because its list is a list of nutrients.
        var amongNutrients: [Bool]
    }

    /// Applies the context rules and builds the mentions.
    mutating func emitMentions() {
        let merged = self.merged
        let layout = contextLayout(merged)
        var ingredientCache = [String?](repeating: nil, count: structure.items.count)
        var coveredItems = [Int8](repeating: -1, count: structure.items.count)
        for (position, entry) in merged.enumerated() {
            var best = entry.best
            if entry.parts.count == 1, !standsInContext(position, merged, layout) { continue }
            if !best.isCode, rejectedByNameRules(best) { continue }
            if !best.isCode, best.code == Self.monoAndDiglycerides,
               followsEsterWord(best.nameTokens, covered: layout.covered) {
                best.code = Self.glycerideEsters
            }
            let first = best.tokens.lowerBound
            if let governing = item(first), governing.inNutrientGroup,
               best.kind == .ins || (!best.isCode && !countsAmongNutrients(best)) { continue }
            var texts = entry.parts.map { original($0.tokens) }
            let span = byteRange(best.tokens)
            let itemIndex = Int(structure.itemOfToken[first])
            var function: String?
            if itemIndex >= 0 {
                let governing = structure.items[itemIndex]
                function = governing.function == FunctionClasses.genericID ? nil : governing.function
                // `Farbstoff E 150d`: the class word right before the additive is part of what named it.
                if let classWord = governing.classTokens, classWord.upperBound <= first,
                   tokens[classWord.upperBound..<first].allSatisfy({ $0.kind == .punct && $0.key == 0x3A }) {
                    texts.insert(original(classWord), at: 0)
                }
            }
            var confidence = Self.baseConfidence(best)
            if let ocr, let mean = ocr.mean(over: span) { confidence *= mean }
            let ingredient = itemIndex >= 0
                ? ingredientText(item: itemIndex, covered: layout.covered, cache: &ingredientCache,
                                 coveredItems: &coveredItems, fallback: texts.last ?? "",
                                 mentionsInItem: layout.mentionsPerItem[itemIndex])
                : nil
            result.mentions.append(Mention(code: best.code, matchedText: texts, span: span, kind: best.kind,
                                           confidence: confidence, function: function, ingredient: ingredient))
        }
    }

    /// Which items hold codes, which tokens candidates cover, how many per item, and which
    /// candidates are nutrients.
    private func contextLayout(_ merged: [MergedCandidate]) -> ContextLayout {
        var layout = ContextLayout(itemHasCode: [Bool](repeating: false, count: structure.items.count + 1),
                                   covered: [Bool](repeating: false, count: tokens.count),
                                   mentionsPerItem: [Int](repeating: 0, count: structure.items.count + 1),
                                   amongNutrients: [])
        // Slip prefixes count when a class word governs them or a true code sits in a neighbouring item.
        for candidate in merged.map(\.best) where candidate.isCode && !candidate.needsContext {
            let itemIndex = structure.itemOfToken[candidate.tokens.lowerBound]
            if itemIndex >= 0 { layout.itemHasCode[Int(itemIndex)] = true }
        }
        for entry in merged {
            for token in entry.best.tokens { layout.covered[token] = true }
            let itemIndex = Int(structure.itemOfToken[entry.best.tokens.lowerBound])
            if itemIndex >= 0 { layout.mentionsPerItem[itemIndex] += 1 }
        }
        layout.amongNutrients = nutrientListReadings(merged)
        return layout
    }

    /// Whether a code needing no context sits in the item before or after `candidate`'s.
    private func neighbourIsCode(_ candidate: Candidate, _ layout: ContextLayout) -> Bool {
        let itemIndex = Int(structure.itemOfToken[candidate.tokens.lowerBound])
        return itemIndex >= 0
            && ((itemIndex > 0 && layout.itemHasCode[itemIndex - 1]) || layout.itemHasCode[itemIndex + 1])
    }

    /// Whether a candidate standing alone (not merged with a code) has the context it needs:
    /// context-only names and nutrients their class word, weak codes a class word or a code beside
    /// them, compounds their own function, OCR names a sure reading (`WeakOCRName`); names in a
    /// nutrition table never (`SaturationWord`).
    private func standsInContext(_ position: Int, _ merged: [MergedCandidate], _ layout: ContextLayout) -> Bool {
        let best = merged[position].best
        let first = best.tokens.lowerBound
        let amongNutrients = layout.amongNutrients[position]
        if best.contextOnly || amongNutrients,
           !(item(first).map { ($0.directContext && !joinedToClassWord(first, $0)) || sameFunction(best.code, $0) } ?? false),
           amongNutrients || !joinedToAdditive(position, merged, layout.amongNutrients) { return false }
        if best.contextOnly && !best.isCode && inNutritionDeclaration(best.tokens) { return false }
        // `gesättigte Fettsäuren`, `acides gras saturés`: a name qualified as saturated
        // is a line of the nutrition table, whatever the name's own marks.
        if !best.isCode && inNutritionDeclaration(best.tokens, window: saturationWindow(best),
                                                  is: Self.isSaturationWord) { return false }
        if best.needsContext && !neighbourIsCode(best, layout) {
            let vouched = best.spelledOut && functionKnown(best.code)
                ? (item(first).map { sameFunction(best.code, $0) } ?? false)
                : item(first)?.function != nil
            if !vouched { return false }
        }
        if best.compound, !(item(first).map { sameFunction(best.code, $0) } ?? false),
           !neighbourIsCode(best, layout) { return false }
        if !best.isCode, !ocrNameHolds(best) { return false }
        return true
    }

    /// Whether a name's words name something else: cultures (`MicrobeQualifier`), another metal's
    /// salt (`OtherMetalSalt`), an ester (`GlycerideEster`), another additive's tail (`FattyAcidsAfterOf`).
    private func rejectedByNameRules(_ name: Candidate) -> Bool {
        if namesMicrobes(name.nameTokens) { return true }
        if qualifiedByAnotherMetal(name.nameTokens) { return true }
        // `Tartaric Esters of …`: an acid's name right before an ester word names the ester.
        if name.nameTokens.upperBound < tokens.count, tokens[name.nameTokens.upperBound].kind == .word,
           endsInEsterWord(name.nameTokens.upperBound) { return true }
        return name.code.number == Self.fattyAcids && afterOfWord(name.nameTokens)
    }

    /// Confidence of a candidate's kind of reading, before OCR's word confidence.
    static func baseConfidence(_ candidate: Candidate) -> Double {
        switch candidate.kind {
        case .code: return 1
        case .ins: return 0.95
        case .name: return candidate.contextOnly ? 0.9 : 1
        case .fuzzy: return max(0.5, 0.85 - 0.1 * Double(candidate.edits - 1))
        case .repaired: return 0.75
        }
    }
}
