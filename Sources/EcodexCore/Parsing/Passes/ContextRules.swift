/// Context rules shared by the passes: whether a class word names an additive's function.
extension ParseSession {
    /// `mit Süssungsmitteln und Vitamin C`, `avec édulcorants et vitamine C`: the item's class
    /// word is joined to the name by `and`, so it names another ingredient, not the name's
    /// function. Such a class word makes no ordinary-food name (a context name) an additive.
    func joinedToClassWord(_ first: Int, _ item: IngredientStructure.Item) -> Bool {
        guard let cls = item.classTokens, cls.upperBound < first else { return false }
        return isAnd(cls.upperBound)
    }

    /// Whether the store knows a function of `code` (or of its group), so a class word can be checked against it.
    func functionKnown(_ code: ECode) -> Bool {
        code.lineage.contains { functions[$0] != nil }
    }

    /// Whether the class word governing `item` names one of `code`'s functions: under
    /// `colours: E102, E129, carmine` the header still vouches for `carmine` (a colour),
    /// but `colorant : E120, vitamine C` does not make vitamin C an additive.
    func sameFunction(_ code: ECode, _ item: IngredientStructure.Item) -> Bool {
        guard let f = item.function, f != FunctionClasses.genericID else { return false }
        return code.lineage.lazy.compactMap { functions[$0] }.first?.contains(f) ?? false
    }

    /// Same additive at the level a label writes it: `caramel` (E150) and `E150d` agree.
    static func sameAdditive(_ a: ECode, _ b: ECode) -> Bool {
        a == b || a.isAncestor(of: b) || b.isAncestor(of: a) || a.base == b.base
    }
}
