/// The ingredient list's shape: items split on commas, semicolons, colons and brackets, with nesting.
///
/// `Emulsifiers (E442, E476)` gives the item `Emulsifiers` and two items inside
/// it whose parent is `Emulsifiers`; `colorants : E100, E120; sel` gives a
/// header item `colorants` that governs the items after its colon until a
/// semicolon, a sentence end or the end of the enclosing bracket.
struct IngredientStructure {
    struct Item {
        /// Token range of the item, end exclusive.
        var tokens: Range<Int>
        /// End of the item's own text: its first opening bracket or colon.
        var headEnd: Int
        /// The item whose bracket encloses this one.
        var parent: Int?
        /// The header (text before a colon) that governs this item.
        var header: Int?
        /// The item this one goes on from after `and` (`Colour (160a) and Acidity Regulator (330)`
        /// is split before `and`): without a class word of its own it keeps that item's function.
        var continues: Int?
        var isHeader = false
        /// Function from a class word inside the item, and that class word's token range.
        var ownFunction: String?
        var classTokens: Range<Int>?
        var nutrient = false
        /// Function after inheriting from header and parent; nutrient groups block it.
        var function: String?
        var inNutrientGroup = false
        /// The item names an additive on its own (a code, a plain name, a bare code number).
        var hasAdditive = false
        /// The function comes from the item, its bracket, or a header right before it:
        /// close enough to make an ordinary-food name (`caramel`) an additive.
        var directContext = false
        /// The item's own class word is a likely chance reading (`ParseSession.weakClassWord`).
        var weakClass = false
        /// Its function comes from such a class word: it vouches for no weak name.
        var weakContext = false
    }

    var items: [Item] = []
    /// Item index of every token (-1 for separators between items).
    var itemOfToken: [Int32]

    /// `splitBefore`: tokens (an `and` before a second class word) where an item ends and the
    /// next goes on from it.
    init(tokens: [Token], splitBefore: Set<Int> = []) {
        itemOfToken = [Int32](repeating: -1, count: tokens.count)
        var frames: [(parent: Int?, header: Int?)] = [(nil, nil)]
        var current: Int?
        var continuing: Int?

        func open(_ i: Int) -> Int {
            if let c = current { return c }
            let f = frames[frames.count - 1]
            items.append(Item(tokens: i..<i, headEnd: -1, parent: f.parent, header: f.header, continues: continuing))
            continuing = nil
            current = items.count - 1
            return items.count - 1
        }
        func close(at i: Int) {
            if let c = current {
                items[c].tokens = items[c].tokens.lowerBound..<max(items[c].tokens.upperBound, i)
                if items[c].headEnd < 0 { items[c].headEnd = items[c].tokens.upperBound }
            }
            current = nil
        }

        for (i, t) in tokens.enumerated() {
            if splitBefore.contains(i), let c = current {
                close(at: i)
                continuing = c
            }
            if t.kind == .punct {
                switch t.key {
                case 0x2C:  // ,
                    if Token.isInnerNumberPunct(tokens, i) { break }
                    close(at: i)
                    continue
                case 0x3B:  // ;
                    close(at: i)
                    frames[frames.count - 1].header = nil
                    continue
                case 0x3A:  // :
                    // `INS N°420` never reaches here as a colon; `12:30` between digits is not a header.
                    if i > 0, i + 1 < tokens.count, tokens[i - 1].isDigits, tokens[i + 1].isDigits, !tokens[i + 1].spaceBefore {
                        break
                    }
                    if let c = current {
                        items[c].isHeader = true
                        items[c].headEnd = min(items[c].headEnd < 0 ? i : items[c].headEnd, i)
                        itemOfToken[i] = Int32(c)
                        close(at: i + 1)
                        frames[frames.count - 1].header = c
                    }
                    continue
                case 0x28, 0x5B, 0x7B:  // ( [ {
                    let c = open(i)
                    itemOfToken[i] = Int32(c)
                    if items[c].headEnd < 0 { items[c].headEnd = i }
                    items[c].tokens = items[c].tokens.lowerBound..<(i + 1)
                    frames.append((c, nil))
                    current = nil
                    continue
                case 0x29, 0x5D, 0x7D:  // ) ] }
                    close(at: i)
                    if frames.count > 1 {
                        let f = frames.removeLast()
                        current = f.parent
                        if let p = f.parent { itemOfToken[i] = Int32(p); items[p].tokens = items[p].tokens.lowerBound..<(i + 1) }
                    }
                    continue
                case 0x2D, 0x2022, 0xB7:  // ` - `, bullets: list separators when set apart by spaces
                    if t.key != 0x2D || (t.spaceBefore && i + 1 < tokens.count && tokens[i + 1].spaceBefore) {
                        close(at: i)
                        continue
                    }
                case 0x2E:  // .
                    if Self.endsSentence(tokens, i) {
                        close(at: i)
                        frames[frames.count - 1].header = nil
                        continue
                    }
                default:
                    break
                }
            }
            let c = open(i)
            itemOfToken[i] = Int32(c)
            items[c].tokens = items[c].tokens.lowerBound..<(i + 1)
        }
        close(at: tokens.count)
        for k in items.indices where items[k].headEnd < 0 || items[k].headEnd > items[k].tokens.upperBound {
            items[k].headEnd = items[k].tokens.upperBound
        }
    }

    /// Whether the full stop at token `i` ends a sentence: after a word, before a new word or the
    /// end; `No. 5` and `E. coli` do not. It ends items, and no name reads across it
    /// (`ASPARTAME. ACÉSULFAME-K` is two sweeteners, not their salt E962).
    static func endsSentence(_ tokens: [Token], _ i: Int) -> Bool {
        i > 0 && tokens[i].kind == .punct && tokens[i].key == 0x2E && tokens[i - 1].kind == .word
            && tokens[i - 1].length >= 2 && !tokens[i - 1].isDigits && !NameIndex.numberMarks.contains(tokens[i - 1].key)
            && (i + 1 == tokens.count || tokens[i + 1].spaceBefore)
    }

    /// Records a class word found inside an item; the first one in the item wins.
    mutating func noteClass(at tokens: Range<Int>, function: String?, nutrient: Bool, weak: Bool = false) {
        guard let first = tokens.first, itemOfToken[first] >= 0 else { return }
        let k = Int(itemOfToken[first])
        if nutrient {
            if items[k].ownFunction == nil { items[k].nutrient = true }
            return
        }
        if items[k].ownFunction == nil && !items[k].nutrient {
            items[k].ownFunction = function
            items[k].classTokens = tokens
            items[k].weakClass = weak
        }
    }

    /// Marks the item holding `token` as naming an additive by itself.
    mutating func noteAdditive(at token: Int) {
        let k = itemOfToken[token]
        if k >= 0 { items[Int(k)].hasAdditive = true }
    }

    /// US and Canadian style, the function after the name: `turmeric (color)`, `TBHQ (preservative)`,
    /// `sodium benzoate (to protect flavor)`. A bracket that holds nothing but a class phrase gives
    /// its function to the item it belongs to, as a class header before the name would.
    mutating func liftTrailingFunctions(tokens: [Token]) {
        for k in items.indices {
            guard let f = items[k].ownFunction, f != FunctionClasses.genericID, let cls = items[k].classTokens,
                  let p = items[k].parent, items[p].ownFunction == nil, !items[p].nutrient, !items[p].isHeader
            else { continue }
            let words = items[k].tokens.filter { tokens[$0].kind == .word }
            guard !words.isEmpty, words.allSatisfy(cls.contains) else { continue }
            items[p].ownFunction = f
            items[p].weakClass = items[k].weakClass
        }
    }

    /// Resolves inherited functions; parents and headers always precede the items they govern.
    ///
    /// A header governs the items after its colon while they keep naming additives:
    /// in `colorant : E120, vitamine C, E500` the scope ends at `vitamine C`, which a
    /// colour header may make an additive only when it comes first.
    mutating func resolve() {
        var broken = [Bool](repeating: false, count: items.count)
        var started = [Bool](repeating: false, count: items.count)
        for k in items.indices {
            var f = items[k].ownFunction
            var nutrient = items[k].nutrient
            var direct = f != nil
            var weak = items[k].weakClass
            if f == nil && !nutrient, let c = items[k].continues {
                f = items[c].function
                nutrient = items[c].inNutrientGroup
                direct = items[c].directContext
                weak = items[c].weakContext
            }
            if f == nil && !nutrient, let h = items[k].header, !broken[h] {
                f = items[h].function
                nutrient = items[h].inNutrientGroup
                direct = !started[h] && items[h].directContext
                weak = items[h].weakContext
                started[h] = true
            }
            if f == nil && !nutrient, let p = items[k].parent {
                f = items[p].function
                nutrient = items[p].inNutrientGroup
                direct = items[p].directContext
                weak = items[p].weakContext
            }
            // Nutrient headers (`Minéraux :`) keep their scope over unknown salts.
            if let h = items[k].header, !items[k].hasAdditive, items[k].ownFunction == nil, !items[h].inNutrientGroup {
                broken[h] = true
                started[h] = true
            }
            items[k].function = nutrient ? nil : f
            items[k].inNutrientGroup = nutrient
            items[k].directContext = direct && !nutrient && f != nil
            items[k].weakContext = weak && f != nil
        }
    }
}
