/// Context rules for nutrients: mineral salts listed as nutrients, nutrition tables.
extension ParseSession {
    /// Under a vitamins-and-minerals header, a mineral salt named in full (`calcium carbonate`)
    /// and vitamin C named as an ascorbic acid or ascorbate (`sodium ascorbate`) are additive
    /// substances, as the gold truth and the shared real-photo manifest count them; the
    /// vitamins named as vitamins (`riboflavin`, `beta-carotene`, `vitamin E`) are nutrients.
    func countsAmongNutrients(_ c: Candidate) -> Bool {
        if NutrientSalts.mayBeNutrient(words(c.nameTokens)) { return true }
        return c.code.lineage.contains { Self.ascorbates.contains($0) }
    }

    /// Ascorbic acid and its salts and esters (E300–E304).
    static let ascorbates: Set<ECode> = Set(["E300", "E301", "E302", "E303", "E304"].compactMap { ECode($0) })

    /// Folded words of a token range.
    func words(_ r: Range<Int>) -> [ArraySlice<UInt32>] {
        r.compactMap { tokens[$0].kind == .word ? norm.scalars[Int(tokens[$0].start)..<Int(tokens[$0].end)] : nil }
    }

    /// Which name candidates are read as nutrients because their list is a list of nutrients.
    ///
    /// Infant formula and mineral premixes list salts without a class word: `carbonate de
    /// calcium, chlorures de calcium, citrates de potassium, phosphate de calcium`. When at
    /// least two items of one list (the items of one bracket, or under one header) name salts
    /// that need additive context, and no item names an additive that is not a mineral salt or
    /// an amino acid, the mineral salts and amino acids of that list need context too
    /// (`NutrientSalts`). A printed code always counts.
    func nutrientListReadings(_ merged: [MergedCandidate]) -> [Bool] {
        var out = [Bool](repeating: false, count: merged.count)
        guard merged.count >= 3 else { return out }
        func key(_ c: Candidate) -> Int64? {
            let k = Int(structure.itemOfToken[c.tokens.lowerBound])
            guard k >= 0 else { return nil }
            let it = structure.items[k]
            return Int64(it.parent ?? -1) << 32 | Int64(UInt32(truncatingIfNeeded: it.header ?? -1))
        }
        // Context-only salts first: most texts have none, and then nothing else is looked at.
        var salts: [Int64: Int] = [:]
        for m in merged where m.parts.count == 1 && !m.best.isCode && m.best.contextOnly {
            if let g = key(m.best), NutrientSalts.isSalt(words(m.best.nameTokens)) { salts[g, default: 0] += 1 }
        }
        guard salts.values.contains(where: { $0 >= 2 }) else { return out }
        var others: [Int64: Int] = [:]
        for (i, m) in merged.enumerated() {
            let best = m.best
            guard !best.contextOnly, !best.needsContext, let g = key(best), salts[g, default: 0] >= 2 else { continue }
            if m.parts.count == 1 && !best.isCode && NutrientSalts.mayBeNutrient(words(best.nameTokens)) {
                out[i] = true
            } else {
                others[g, default: 0] += 1
            }
        }
        for i in merged.indices where out[i] {
            out[i] = key(merged[i].best).map { others[$0, default: 0] == 0 } ?? false
        }
        return out
    }

    /// Whether a context-only salt is joined by `and` to an additive that needs no context:
    /// `talc et carbonate de calcium`, `E341 and calcium carbonate`. Fortification lists salts
    /// with vitamins and minerals, not with additives.
    func joinedToAdditive(_ i: Int, _ merged: [MergedCandidate],
                          _ amongNutrients: [Bool]) -> Bool {
        let me = merged[i].best
        guard !me.isCode, NutrientSalts.isSalt(words(me.nameTokens)) else { return false }
        for j in [i - 1, i + 1] where j >= 0 && j < merged.count {
            let other = merged[j].best
            guard !other.contextOnly, !other.needsContext, !amongNutrients[j] else { continue }
            let gap = j < i ? other.tokens.upperBound : me.tokens.upperBound
            let next = j < i ? me.tokens.lowerBound : other.tokens.lowerBound
            guard next == gap + 1, isAnd(gap),
                  structure.itemOfToken[gap] == structure.itemOfToken[me.tokens.lowerBound] else { continue }
            return true
        }
        return false
    }

    /// Whether a name sits in a nutrition table: a nutrition word within a few words of it.
    /// Names that are also nutrients (`Fettsäuren`, `acides gras`, `vitamin C`) are context-only;
    /// on a photo a class word read nearby must not make the table's line an additive.
    func inNutritionDeclaration(_ range: Range<Int>, window: Int = nutritionWindow,
                                is word: (String) -> Bool = { w in nutritionWords.contains { w.hasPrefix($0) } }) -> Bool {
        func isNutrition(_ k: Int) -> Bool {
            let t = tokens[k]
            guard t.kind == .word, t.length >= 4 else { return false }
            return word(String(String.UnicodeScalarView(norm.scalars[Int(t.start)..<Int(t.end)].compactMap(Unicode.Scalar.init))))
        }
        var words = 0
        var k = range.lowerBound - 1
        while k >= 0, words < window {
            if tokens[k].kind == .word { words += 1; if isNutrition(k) { return true } }
            k -= 1
        }
        words = 0
        k = range.upperBound
        while k < tokens.count, words < window {
            if tokens[k].kind == .word { words += 1; if isNutrition(k) { return true } }
            k += 1
        }
        return false
    }
}
