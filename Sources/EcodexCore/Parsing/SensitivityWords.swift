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
    /// Folded word → what it names. Forms as labels print them, one list per sensitivity.
    static let words: [UInt64: Sensitivity] = {
        var table: [UInt64: Sensitivity] = [:]
        let lists: [(Sensitivity, [String])] = [
            (.sulphites, [
                "SULPHITES", "SULFITES", "SULPHITE", "SULFITE",       // en, fr, de
                "SULFIT", "SULFITEN", "SOLFITI", "SOLFITO",           // de, it
                "SULFITOS", "SULFITO", "SULFIETEN", "SULFIET",        // es, pt, nl
                "SULFITTER", "SULFITT", "SULFITER", "SULFIITIT", "SULFIITTEJA",  // da, no, sv, fi
                "SIARCZYNY", "SIARCZYNOW", "SIRICITANY", "SZULFITOK", "SZULFIT",  // pl, cs, sk, hu
                "SULFITI", "SULFITII", "SULFITAI", "SULFITID",        // ro, hr, sl, lv, lt, et
            ]),
            (.caffeine, [
                "CAFFEINE", "KOFFEIN", "CAFEINE", "CAFFEINA", "CAFEINA",  // en, de, fr, nl, it, es, pt
                "KOFEIN", "KOFEINA", "KOFEINY", "KOFEIINI", "KOFEIINIA", "KOFEIIN", "KOFEINAS", "KOFEINS",
            ]),
            (.shellfish, [
                "SHELLFISH", "CRUSTACEANS", "CRUSTACEAN", "CRUSTACEA", "MOLLUSCS", "MOLLUSC", "MOLLUSKS",
                "MOLLUSK", "SHRIMP", "SHRIMPS", "PRAWN", "PRAWNS", "CRAB", "CRABS", "LOBSTER", "LOBSTERS",
                "CRAYFISH", "CRAWFISH", "LANGOUSTINE", "LANGOUSTINES", "KRILL", "OYSTER", "OYSTERS",
                "MUSSEL", "MUSSELS", "CLAM", "CLAMS", "SCALLOP", "SCALLOPS",
                "KREBSTIERE", "KREBSTIEREN", "WEICHTIERE", "WEICHTIEREN", "GARNELEN", "GARNELE",
                "KRABBEN", "HUMMER", "MUSCHELN", "MIESMUSCHELN", "AUSTERN",
                "CRUSTACES", "CRUSTACE", "MOLLUSQUES", "MOLLUSQUE", "CREVETTES", "CREVETTE", "CRABE",
                "CRABES", "HOMARD", "MOULES", "HUITRES",
                "CROSTACEI", "MOLLUSCHI", "GAMBERI", "GAMBERETTI", "GRANCHIO", "ARAGOSTA", "SCAMPI",
                "COZZE", "VONGOLE", "OSTRICHE",
                "CRUSTACEOS", "MOLUSCOS", "GAMBAS", "CAMARONES", "LANGOSTINOS", "CANGREJO", "MEJILLONES",
                "ALMEJAS", "OSTRAS", "CAMARAO", "CAMAROES",
                "SCHAALDIEREN", "WEEKDIEREN", "GARNALEN", "MOSSELEN", "OESTERS",
                "SKORUPIAKI", "SKORUPIAKOW", "MIECZAKI", "MIECZAKOW", "KORYSI", "MEKKYSI",
                "KRAFTDJUR", "BLOTDJUR", "KREBSDYR", "BLODDYR", "SKALLDYR", "AYRIAISET", "NILVIAISET",
                "RAKFELEK", "CRUSTACEE", "MOLUSTE",
            ]),
        ]
        for (s, forms) in lists {
            for f in forms { table[Token.hash(f)] = s }
        }
        return table
    }()

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
