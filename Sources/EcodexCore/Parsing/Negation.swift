/// Words that deny what follows them in their item: `ohne Konservierungsstoffe`,
/// `sans colorants ni conservateurs`, `No added MSG`, `free from E621`. An additive or a
/// class word in that scope is not on the label; a class word there gives no context.
/// An item that says its additive was added to the packaging is treated the same way
/// (`markPackaging`).
///
/// The scope runs to the end of the item (a comma, semicolon, sentence end or the item's
/// closing bracket) or to a word that brings back what is there (`ohne Zucker, mit
/// Süssungsmitteln`, `senza glutine con lecitina`). The words are the pack's (`LabelKnowledge`).
enum Negation {
    /// One-word negations.
    static var words: [UInt64] { LabelTables.current.negationWords }
    /// Two-word negations (`free from`, `frei von`, `privo di`, `libre de`, `vrij van`).
    static var pairs: [(UInt64, UInt64)] { LabelTables.current.negationPairs }
    /// Words that end a negation's scope inside its item.
    static var ends: [UInt64] { LabelTables.current.scopeEnds }
    /// `No` is also a number mark (`Yellow No 5`, `INS No. 322`): it denies only at the start
    /// of its item or after these words (`contains no`, `with no`).
    static var noOpeners: [UInt64] { LabelTables.current.noOpeners }
    private static let no = Token.hash("NO")

    /// Whether each token lies in a negation's scope. `consumed` marks tokens a code already took
    /// (`SIN 330` is the French INS prefix, not Spanish `sin`).
    static func scopes(tokens: [Token], structure: IngredientStructure, consumed: [Bool]) -> [Bool] {
        var negated = [Bool](repeating: false, count: tokens.count)
        var i = 0
        while i < tokens.count {
            guard let width = width(tokens, at: i, structure: structure, consumed: consumed) else {
                i += 1
                continue
            }
            let k = structure.itemOfToken[i]
            let end = k >= 0 ? structure.items[Int(k)].tokens.upperBound : tokens.count
            var j = i + width
            while j < end, !(tokens[j].kind == .word && ends.contains(tokens[j].key)) {
                negated[j] = true
                j += 1
            }
            if j >= end, k >= 0, deniesItsList(Int(k), from: i, tokens: tokens, structure: structure) {
                // `Free from: E621, E102`, `Ohne Zusatz von: E621`: the items the header governs.
                for item in structure.items where item.header == Int(k) {
                    for t in item.tokens { negated[t] = true }
                }
            }
            i = j
        }
        markFreeAfter(tokens: tokens, negated: &negated)
        markPackaging(tokens: tokens, structure: structure, negated: &negated)
        markDates(tokens: tokens, negated: &negated)
        return negated
    }

    /// Best-before and batch phrases (`mindestens haltbar bis`, `best before`, `à consommer de
    /// préférence avant`, `Lot`, `EXP`): the few words after them say where the date or batch mark is
    /// or give it, and are no ingredients, though their codes read like additives (`Deckelrand ⟨e141.⟩`).
    static var datePairs: [(UInt64, UInt64)] { LabelTables.current.datePairs }
    static var dateWords: [UInt64] { LabelTables.current.dateWords }
    /// How many words after a date phrase are its date or mark (`siehe Deckel`, `voir le couvercle`, `L2301 14:05`).
    static let dateScopeWords = 3

    /// Marks up to `dateScopeWords` words after each date phrase, to a comma, semicolon or the
    /// end of a sentence.
    private static func markDates(tokens: [Token], negated: inout [Bool]) {
        for (i, t) in tokens.enumerated() where t.kind == .word {
            let width: Int
            if dateWords.contains(t.key) {
                width = 1
            } else if i + 1 < tokens.count, tokens[i + 1].kind == .word,
                      datePairs.contains(where: { $0.0 == t.key && $0.1 == tokens[i + 1].key }) {
                width = 2
            } else {
                continue
            }
            var k = i + width
            var words = 0
            while k < tokens.count, words < dateScopeWords {
                let u = tokens[k]
                if u.kind == .punct {
                    if u.key == 0x2C || u.key == 0x3B || IngredientStructure.endsSentence(tokens, k) { break }
                } else {
                    words += 1
                    negated[k] = true
                }
                k += 1
            }
        }
    }

    /// Words that deny the words right before them: `MSG free`, `aspartame-free`, `sulphite free`
    /// (`free from` denies what follows, in `pairs`). One word such as `glutamatfrei` names no additive.
    static var freeAfter: [UInt64] { LabelTables.current.freeAfter }
    private static let from = Token.hash("FROM"), von = Token.hash("VON"), van = Token.hash("VAN")
    /// How many words before `free` it denies.
    static let freeAfterWords = 3

    /// Marks up to `freeAfterWords` words before each `free` word (a hyphen may join them), back to a
    /// punctuation mark: in `Soup, MSG free`, `MSG` is denied, and in `gluten free oats` only `gluten`.
    private static func markFreeAfter(tokens: [Token], negated: inout [Bool]) {
        for (j, t) in tokens.enumerated() where j > 0 && t.kind == .word && freeAfter.contains(t.key) {
            if j + 1 < tokens.count, tokens[j + 1].kind == .word,
               [from, von, van].contains(tokens[j + 1].key) { continue }
            var k = j - 1
            var words = 0
            while k >= 0, words < freeAfterWords {
                if tokens[k].kind == .punct {
                    guard tokens[k].key == 0x2D else { break }
                } else {
                    words += 1
                }
                negated[k] = true
                k -= 1
            }
        }
    }

    /// Words that name the package and words that say something was put there: `BHT added to
    /// packaging material to preserve freshness`, `BHT ajouté à l'emballage` (US and Canadian
    /// cereals). Such an additive is in the package, not the food. `Packaging gas: nitrogen` and
    /// `packed in a protective atmosphere` say nothing was added, so they stay.
    static var packagingWords: [UInt64] { LabelTables.current.packageWords }
    static var addedWords: [UInt64] { LabelTables.current.addedWords }

    /// Marks the words of each item that says its additive was added to the packaging, and the
    /// items a header like `Added to packaging:` lists. Only the item's own words: in
    /// `cereal (corn, E330, BHT added to packaging)`, E330 stays.
    private static func markPackaging(tokens: [Token], structure: IngredientStructure, negated: inout [Bool]) {
        // Running counts, and tokens and governed items bucketed by item, so that the work is linear
        // in the text: nested brackets make items that span most of it, and a pass over each item's
        // tokens would be quadratic on a fuzzed text of many closing brackets.
        var packaging = [Int32](repeating: 0, count: tokens.count + 1)
        var added = [Int32](repeating: 0, count: tokens.count + 1)
        var words = [Int32](repeating: 0, count: tokens.count + 1)
        for (i, t) in tokens.enumerated() {
            let word = t.kind == .word
            packaging[i + 1] = packaging[i] + (word && packagingWords.contains(t.key) ? 1 : 0)
            added[i + 1] = added[i] + (word && addedWords.contains(t.key) ? 1 : 0)
            words[i + 1] = words[i] + (word ? 1 : 0)
        }
        guard packaging[tokens.count] > 0, added[tokens.count] > 0 else { return }
        var ownTokens = [[Int]](repeating: [], count: structure.items.count)
        for (t, k) in structure.itemOfToken.enumerated() where k >= 0 { ownTokens[Int(k)].append(t) }
        var governed = [[Int]](repeating: [], count: structure.items.count)
        for (j, other) in structure.items.enumerated() {
            if let h = other.header, h >= 0, h < governed.count { governed[h].append(j) }
        }
        for (k, item) in structure.items.enumerated() {
            let r = item.tokens
            guard packaging[r.upperBound] > packaging[r.lowerBound], added[r.upperBound] > added[r.lowerBound] else { continue }
            for t in ownTokens[k] { negated[t] = true }
            if item.isHeader, words[r.upperBound] - words[r.lowerBound] <= 5 {
                for j in governed[k] {
                    for t in structure.items[j].tokens { negated[t] = true }
                }
            }
        }
    }

    /// Whether item `k`, where a negation starts at token `i`, is a short header that denies what
    /// its colon lists: the negation opens it (`Free from:`, `Sans :`, or after `contains`) and it
    /// holds at most four words (`Ohne Zusatz von:`). `Zutaten ohne Gentechnik: Zucker` is a list
    /// header whose own words are denied, not its list.
    private static func deniesItsList(_ k: Int, from i: Int, tokens: [Token], structure: IngredientStructure) -> Bool {
        let item = structure.items[k]
        guard item.isHeader else { return false }
        let words = item.tokens.filter { tokens[$0].kind == .word }
        guard words.count <= 4, let first = words.first else { return false }
        return first == i || (noOpeners.contains(tokens[first].key) && words.dropFirst().first == i)
    }

    /// The number of words of the negation starting at `i`, or nil when none starts there.
    private static func width(_ tokens: [Token], at i: Int, structure: IngredientStructure, consumed: [Bool]) -> Int? {
        let t = tokens[i]
        guard t.kind == .word, !consumed[i] else { return nil }
        var width = 0
        var bareNo = false
        if words.contains(t.key) {
            width = 1
            if t.key == no {
                let k = structure.itemOfToken[i]
                let first = k >= 0 && structure.items[Int(k)].tokens.lowerBound == i
                let opened = i > 0 && tokens[i - 1].kind == .word && noOpeners.contains(tokens[i - 1].key)
                guard first || opened else { return nil }
                bareNo = !opened
            }
        } else if i + 1 < tokens.count, tokens[i + 1].kind == .word,
                  pairs.contains(where: { $0.0 == t.key && $0.1 == tokens[i + 1].key }) {
            width = 2
        } else {
            return nil
        }
        // What is denied is a word or a code: `No. 5`, `No 5` and `SIN 330` deny nothing; or the
        // list after a header's colon (`Free from: E621`, see `deniesItsList`).
        let next = i + width
        guard next < tokens.count else { return nil }
        if tokens[next].kind == .punct, tokens[next].key == 0x3A {
            // `No: 5` numbers; `Contains no:` denies.
            guard !bareNo else { return nil }
            return structure.itemOfToken[next] >= 0 && structure.itemOfToken[next] == structure.itemOfToken[i] ? width : nil
        }
        guard tokens[next].kind == .word, !tokens[next].isDigits else { return nil }
        return width
    }
}
