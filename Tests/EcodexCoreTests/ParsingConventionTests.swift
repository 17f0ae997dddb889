import Testing
import EcodexCore

/// Label conventions beyond the EU's `class: name (E-number)`: US and Canadian word order,
/// Australian/New Zealand and Indian class names with bare numbers, INS lists, and word
/// forms in both directions. Each rule has positive and negative rows, in two languages
/// or more where the convention exists.
@Suite("Parsing: label conventions")
struct ParsingConventionTests {
    typealias S = ParsingTestSupport

    @Test("Singular and plural are one word, whichever form the store has", arguments: [
        // The store has `sodium citrates` / `citrates de sodium`; US labels print the singular.
        ("Sodium Citrate", ["E331"]),
        ("Acidity Regulator (Sodium Citrate)", ["E331"]),
        ("water, sodium citrate, salt", ["E331"]),
        ("sodium citrates", ["E331"]),
        ("citrate de sodium", ["E331"]),
        ("citrates de sodium", ["E331"]),
        // German `-e`, Italian `-o`/`-i`, Spanish `-o`/`-os`.
        ("Emulgator: Sojalecithine", ["E322"]),
        ("Geliermittel: Pektine", ["E440"]),
        ("citrato di sodio", ["E331"]),
        ("citrati di sodio", ["E331"]),
        ("benzoatos de sodio", ["E211"]),
        ("potassium sorbates", ["E202"]),
    ] as [(String, [String])])
    func wordForms(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("Word forms stay strict: short words, other words, stems that are plurals already", arguments: [
        "pectinase enzyme",     // not `pectinas` + `e`
        "Karotten, Zucker",     // not `Karoten` + `n`
        "Salzes, Essige",       // stems under six letters
        "sirop de sucre inverti",  // `inverti` + `n` is not `Invertin`
        "carbonated water",
    ])
    func wordFormsStayStrict(text: String) {
        S.expectCodes(text, [])
    }

    @Test("A function after the name is additive context, in brackets or as a following class noun", arguments: [
        ("paprika extract (color), salt", ["E160c"]),
        ("caramel (colour)", ["E150"]),
        ("Sugar, caramel color", ["E150"]),
        ("vitamin C (antioxidant)", ["E300"]),
        ("ascorbic acid (vitamin C), salt", ["E300"]),
        ("TBHQ (preservative)", ["E319"]),
        ("sodium benzoate (to protect flavor)", ["E211"]),
        ("sorbic acid (a preservative), salt", ["E200"]),
        ("caramel (colorant)", ["E150"]),
        ("Karamell (Farbstoff)", ["E150"]),
        ("extrait de paprika (colorant)", ["E160c"]),
    ] as [(String, [String])])
    func functionAfterName(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("Without a function word, foods stay foods", arguments: [
        "turmeric, salt",
        "caramel (organic)",
        "paprika extract, sugar",
        "Karamell (aus Zucker)",
        "caramel (sugar, cream)",
        "vitamin C",
    ])
    func foodsStayFoods(text: String) {
        S.expectCodes(text, [])
    }

    @Test("Carmine in an ingredient list is the colour E120, with or without a class word", arguments: [
        "INGREDIENTS: Sugar, water, modified corn starch, carmine, natural flavor.",
        "carmine (color)",
        "Laitue, Carmine",
        "colorant: carmin",
    ])
    func carmine(text: String) {
        S.expectCodes(text, ["E120"])
    }

    @Test("Australian/NZ and Indian class names open a scope for bare code numbers", arguments: [
        ("Mineral Salts (450, 451)", ["E450", "E451"]),
        ("Colour (150d)", ["E150d"]),
        ("Thickener (1422)", ["E1422"]),
        ("Emulsifier (471, 322 from soy)", ["E471", "E322"]),
        ("Food Acid (330), Vegetable Gum (412)", ["E330", "E412"]),
        ("Humectant (422), Firming Agent (509)", ["E422", "E509"]),
        ("Antioxidant (307b)", ["E307b"]),
        ("Class II Preservative (211)", ["E211"]),
        ("Colour Fixative (250)", ["E250"]),
        ("Flour Treatment Agent (300)", ["E300"]),
        ("Correcteur d'acidité (330), colorant (150d)", ["E330", "E150d"]),
        ("Säureregulator (330)", ["E330"]),
        // A bracketed number right after a name of the same additive is its code.
        ("caramel color (150d)", ["E150d"]),
        ("sugar, soy lecithin (322), salt", ["E322"]),
        ("citric acid (330)", ["E330"]),
    ] as [(String, [String])])
    func classWithBareNumbers(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("Class words of every EU language and Norwegian open a scope for bare numbers", arguments: [
        "Surhetsreglerande medel (330)",              // sv
        "Surhedsregulerende middel (330)",            // da
        "Surhetsregulerende middel (330)",            // nb
        "Regulátor kyselosti (330)",                  // cs
        "Regulátor kyslosti (330)",                   // sk
        "Savanyúságot szabályozó anyag (330)",        // hu
        "Corector de aciditate (330)",                // ro
        "Ρυθμιστής οξύτητας (330)",                   // el
        "Регулатор на киселинност (330)",             // bg
        "Sredstvo za uravnavanje kislosti (330)",     // sl
        "Skābuma regulētājs (330)",                   // lv
        "Happesuse regulaator (330)",                 // et
        "Regulator kwasowości (330)",                 // pl
    ])
    func classWordsInEveryLanguage(text: String) {
        S.expectCodes(text, ["E330"])
    }

    @Test("Nutrient groups in those languages are not additive context", arguments: [
        "Witaminy (330)", "Vitaminer (330)", "Vitamíny (330)", "Kivennäisaineet (330)",
    ])
    func nutrientGroupsInEveryLanguage(text: String) {
        S.expectCodes(text, [])
    }

    @Test("Numbers outside a class scope, quantities and nutrient groups are not codes", arguments: [
        "Sugar (150g), salt",
        "Wheat flour (330), salt",
        "Mineral water (500 ml)",
        "Minerals (330, 500)",
        "Colour (150 g)",
        "Farine (330), sel",
        "sugar (322), salt",
    ])
    func bareNumbersStayStrict(text: String) {
        S.expectCodes(text, [])
    }

    @Test("INS and E lists share their prefix", arguments: [
        ("INS 240,241,242", ["E240", "E241", "E242"]),
        ("INS 330, 331", ["E330", "E331"]),
        ("Acidity regulator (INS 330, 331)", ["E330", "E331"]),
        ("SIN 450, 451", ["E450", "E451"]),
        ("E330,331", ["E330", "E331"]),
    ] as [(String, [String])])
    func prefixLists(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("A code followed by a quantity or a spaced number is one code", arguments: [
        ("E330, 500 g", ["E330"]),
        ("E330, 331 mg", ["E330"]),
        ("INS 330, 12%", ["E330"]),
        ("E330, 331", ["E330"]),
    ] as [(String, [String])])
    func prefixListsStayStrict(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("Salts added as nutrients count only in additive context", arguments: [
        ("Wheat flour (with calcium carbonate, iron, thiamin)", []),
        ("chlorure de choline, taurine, inositol", []),
        // Calcium chloride is left out: US pickles name it bare, as a firming agent.
        ("CUCUMBERS, WATER, CALCIUM CHLORIDE, SALT", ["E509"]),
        ("acidity regulator: calcium carbonate", ["E170"]),
        ("Säureregulator: Calciumcarbonat", ["E170"]),
        ("firming agent (calcium chloride)", ["E509"]),
    ] as [(String, [String])])
    func nutrientSalts(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    /// The same conventions through the shipped base pack, whose names and context marks are
    /// the data's, not the test lexicon's.
    static let shipped = IngredientParser(lexicon: Lexicon(additives: BasePackTests.pack.additives))

    @Test("Through the shipped data: US, Australian and Indian lists", arguments: [
        ("INGREDIENTS: Sugar, water, modified corn starch, carmine, natural flavor.", ["E120"]),
        ("Zucker, Karmin", ["E120"]),
        ("turmeric (color), paprika extract (color)", ["E100", "E160c"]),
        ("Sodium Citrate, potassium sorbates", ["E331", "E202"]),
        ("Mineral Salts (450, 451), Colour (150d), Food Acid (330)", ["E450", "E451", "E150d", "E330"]),
        ("INS 240,241,242", ["E240", "E241", "E242"]),
        ("caramel colour (150d), soy lecithin (322)", ["E150d", "E322"]),
        ("Wheat flour (with calcium carbonate, iron, niacin, thiamin)", []),
        ("turmeric, salt", []),
    ] as [(String, [String])])
    func shippedData(text: String, codes: [String]) {
        let got = Self.shipped.parse(text).mentions.map(\.code.description)
        #expect(got == codes, "\(text)")
    }
}
