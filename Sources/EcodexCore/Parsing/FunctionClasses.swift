/// The class words that announce an additive's function on a label: the `class_words` of the
/// pack's languages (`packs/base/languages.json`, and `class-words.json` from the Open Food Facts
/// additive class taxonomy, ODbL). Each row maps a lowercase English id to phrases; the name
/// index adds the usual plural endings.
enum FunctionClasses {
    /// Id of the generic `additives:` header, which is context but no function.
    static let genericID = "additive"

    /// Function id → phrases of the rows written for several languages at once (`mul`).
    static var table: [(id: String, phrases: [String])] { LabelTables.current.sharedClassWords }

    /// Function id → phrases of each other label language, in the languages' order.
    static var taxonomyTable: [(id: String, lang: String, phrases: [String])] { LabelTables.current.languageClassWords }

    /// Group words whose members are nutrients, not additives: `Vitamins (B1, B6, E)`.
    static var nutrientPhrases: [String] { LabelTables.current.sharedNutrientWords }

    /// Nutrient group words of each other label language.
    static var taxonomyNutrientPhrases: [String] { LabelTables.current.languageNutrientWords }
}

/// How many class words the parser knows per label language, for `scan pack validate`.
public enum ClassWordCounts {
    /// EU official languages and Norwegian (`nb`), in the order reports list them.
    public static let labelLanguages = ["bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "ga", "hr", "hu",
                                        "it", "lt", "lv", "mt", "nl", "pl", "pt", "ro", "sk", "sl", "sv", "nb"]
    /// Languages of the hand-written table (its rows mix them, so they are counted together).
    public static let handLanguages = ["en", "de", "fr", "es", "it", "nl"]

    /// Phrases of the hand-written table (English, German, French, Spanish, Italian, Dutch and a few others).
    public static var handTable: Int { FunctionClasses.table.reduce(0) { $0 + $1.phrases.count } }

    /// Taxonomy class words per language (the languages the hand table does not cover).
    public static var perLanguage: [String: Int] {
        FunctionClasses.taxonomyTable.reduce(into: [:]) { $0[$1.lang, default: 0] += $1.phrases.count }
    }
}
