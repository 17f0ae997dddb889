import Testing
import EcodexCore

/// Which languages an unsure English reading shows: the OCR re-reads the page with English
/// and those, so a wrong or missing guess costs the names of that language.
@Suite("Label languages of a rough reading")
struct LabelLanguagesTests {
    /// Words as the English model reads them, all confident unless marked `?` (confidence 40).
    static func words(_ text: String) -> [(text: String, confidence: Double)] {
        text.split(separator: " ").map { $0.hasSuffix("?") ? (String($0.dropLast()), 40) : (String($0), 90) }
    }

    @Test("A German list is German, even read with slips")
    func german() {
        // From gold real/dart_ingredients_coca_light_de.jpg as the English model read it.
        let read = Self.words("Zataten:? Wasser, Kohlensäure, Farbstott? E150d, Säuerungsmittel Phosphorsäure, Süßungsmittel? und Aroma")
        #expect(LabelLanguages.guess(read) == ["deu"])
    }

    @Test("A French panel is French; English words on a French panel do not make it English")
    func french() {
        let read = Self.words("Ingrédients: sucre, sirop de glucose, acidifiant: acide citrique, colorant: E102, arôme naturel")
        #expect(LabelLanguages.guess(read) == ["fra"])
    }

    @Test("A Swiss panel shows each of its languages")
    func swissPanel() {
        let read = Self.words("""
            Zutaten: Zucker, Glukosesirup, Säuerungsmittel (E330), Farbstoff (E160a). \
            Ingrédients: sucre, sirop de glucose, acidifiant (E330), colorant (E160a). \
            Ingredienti: zucchero, sciroppo di glucosio, acidificante (E330), colorante (E160a).
            """)
        #expect(Set(LabelLanguages.guess(read)) == ["deu", "fra", "ita"])
    }

    @Test("List words read surely are counted; unsure words and a brand slogan are not")
    func listWords() {
        #expect(LabelLanguages.listWordCount(Self.words("Zutaten: Zucker, Salz, Zitronensäure")) == 4)
        #expect(LabelLanguages.listWordCount(Self.words("Zutaten:? Zucker? Salz")) == 1)
        #expect(LabelLanguages.listWordCount(Self.words("Ricola Original Swiss Herb Drops 1930")) == 0)
    }

    @Test("An English list is English alone")
    func english() {
        let read = Self.words("Ingredients: sugar, glucose syrup, acidity regulator: citric acid, colour: E102, natural flavouring")
        #expect(LabelLanguages.guess(read) == ["eng"])
    }

    @Test("Specks and short unsure words show no language")
    func specks() {
        // Noise read from a dark photo: short unsure "words" that happen to be `de`, `et`, `en`, `la`.
        let read = Self.words("de? et? en? la? ae? ee? 7s? Be? Le? es? of? the?")
        #expect(LabelLanguages.guess(read).isEmpty)
        #expect(LabelLanguages.guess([]).isEmpty)
    }
}
