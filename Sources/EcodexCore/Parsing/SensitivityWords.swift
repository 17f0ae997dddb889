/// Words by which a label names what a shopper may ask to watch for, apart from any additive:
/// `preservative: sulphites`, `Enthält Sulfite`, `Contains: crustaceans`, `caffeine`.
///
/// A label may declare sulphites by the allergen's name rather than an additive's (Reg. (EU)
/// No 1169/2011 Annex II point 12, 21 CFR 101.100(a)(4)), and crustaceans and molluscs are
/// allergens of their own (Annex II points 2 and 14). Caffeine is a flavouring, not an
/// additive, and drinks rich in it must say so (Annex III point 4.1). None of these is an
/// additive, so the parser never reports one for them (Open Food Facts' parser agrees:
/// `conservateur : sulfites` is no E-number). It reports that the label names them, and the
/// pipeline tells a shopper who asked to watch for it (`--avoid`), unless a card already does.
///
/// Whole words only, in the label languages, outside negations (`sans sulfites`, `free from
/// sulphites`, `sulphite free`: `Negation`) and outside an additive's own name (`sodium metabisulphite`,
/// `sulphite ammonia caramel`). OCR slips do not count: a wrong warning is better avoided than
/// a guess.
enum SensitivityWords {
    /// Folded word → what it names: the `sensitivities` rows of the pack's languages.
    static var words: [UInt64: Sensitivity] { LabelTables.current.sensitivityWords }

    /// Each sensitivity the text names, with the first word that names it as printed, in text order.
    /// `taken` tells whether an additive's name or code covers a token (asked only of the few
    /// tokens in `words`); `negated` marks a negation's scope.
    static func find(tokens: [Token], negated: [Bool], taken: (Int) -> Bool, original: (Range<Int>) -> String)
        -> [NamedSensitivity] {
        var found: [NamedSensitivity] = []
        for (k, t) in tokens.enumerated() where t.kind == .word && !negated[k] {
            guard let s = words[t.key], !found.contains(where: { $0.sensitivity == s }), !taken(k) else { continue }
            found.append(NamedSensitivity(sensitivity: s, text: original(k..<(k + 1))))
        }
        return found
    }
}

/// A sensitivity the label names in words of its own (`sulphites`, `crustaceans`, `caffeine`),
/// as printed.
public struct NamedSensitivity: Sendable, Equatable {
    public var sensitivity: Sensitivity
    public var text: String
    public init(sensitivity: Sensitivity, text: String) {
        self.sensitivity = sensitivity; self.text = text
    }
}
