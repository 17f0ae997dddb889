import Testing
import EcodexCore

@Suite("Parsing: codes")
struct ParsingCodeTests {
    typealias S = ParsingTestSupport

    @Test("E, INS and SIN codes with any separator", arguments: [
        ("E330", "E330", "E330"),
        ("Sugar, E 330, salt", "E330", "E 330"),
        ("Sugar, E-330.", "E330", "E-330"),
        ("E.330", "E330", "E.330"),
        ("Sugar, E_330, salt", "E330", "E_330"),
        ("Sugar, E·330, salt", "E330", "E·330"),
        ("e330", "E330", "e330"),
        ("acid: E0330", "E330", "E0330"),
        ("INS 330", "E330", "INS 330"),
        ("INS N°420", "E420", "INS N°420"),
        ("INS.218", "E218", "INS.218"),
        ("INS #202", "E202", "INS #202"),
        ("INS N'952", "E952", "INS N'952"),
        ("INS°950", "E950", "INS°950"),
        ("SIN450i", "E450(i)", "SIN450i"),
        ("Sugar, E 1 2 0", "E120", "E 1 2 0"),
        ("E150d", "E150d", "E150d"),
        ("colour E 150 d, water", "E150d", "E 150 d"),
        ("E160a(ii)", "E160a(ii)", "E160a(ii)"),
        ("E160aii", "E160a(ii)", "E160aii"),
        ("E472e", "E472e", "E472e"),
        ("INS 141[i]", "E141(i)", "INS 141[i]"),
        ("E1422", "E1422", "E1422"),
        ("E1520", "E1520", "E1520"),
        ("Ｅ３３０", "E330", "Ｅ３３０"),
        ("sugar, E٣٣٠, salt", "E330", "E٣٣٠"),
        ("sugar, E ३३०, salt", "E330", "E ३३०"),
        ("\u{435}322", "E322", "\u{435}322"),
    ])
    func codeForms(text: String, code: String, spanned: String) {
        let r = S.parser.parse(text)
        #expect(r.mentions.map(\.code.description) == [code], "\(text)")
        if let m = r.mentions.first {
            #expect(S.spanText(text, m) == spanned, "\(text)")
            #expect(m.kind == .code || m.kind == .ins, "\(text)")
        }
    }

    @Test("Lists and class scopes", arguments: [
        ("colours E (124, 122, 133)", ["E124", "E122", "E133"]),
        ("ACIDITY REGULATORS (330, 331(i)), PRESERVATIVE(211), SWEETENER (960)", ["E330", "E331(i)", "E211", "E960"]),
        ("émulsifiants : E463, E432 et E472, correcteurs d'acidité : E322/E333 E474-E475",
         ["E463", "E432", "E472", "E322", "E333", "E474", "E475"]),
        ("acidity regulators: 330 and 331, sugar", ["E330", "E331"]),
        ("Farbstoffe: E 102 und E 110", ["E102", "E110"]),
        ("χρωστικές ουσίες Ε120Ε171", ["E120", "E171"]),
        ("Säureregulator (330 und 331)", ["E330", "E331"]),
        // Bare numbers listed without a space after the comma (Australian labels).
        ("flavour enhancers (627,631), mineral salts (451,452,450)", ["E627", "E631", "E451", "E452", "E450"]),
        ("acidity regulator (330,331(i))", ["E330", "E331(i)"]),
        ("Agua, edulcorantes (INS420, INS 960, INS N'952, INS N°954, INS°950, INS N 955)",
         ["E420", "E960", "E952", "E954", "E950", "E955"]),
    ])
    func lists(text: String, codes: [String]) {
        S.expectCodes(text, codes)
    }

    @Test("Not codes", arguments: [
        "Instant coffee 100 %.",
        "cocoa (100%)",
        "Saumon (FAO 27), sel",
        "Vitamins (B1, B6, E)",
        "may contain E. coli",
        "vitamin E 100 mg",
        "sugar¹, salt²",
        "Essig, Wasser, Salz",
        "Sugar 330 g, flour 200",
        "F129 Road, Building C330",
        "Road F 129, Building C 330",
        "vitamin C 100 mg",
        "price £129",
        "vitamines E, B6",
        "Vitamin E l5 mg",
    ])
    func notCodes(text: String) {
        S.expectCodes(text, [])
    }

    @Test("Unknown well-formed codes go to unmatched, once")
    func unmatched() {
        let r = S.parser.parse("E189, sugar, E 189, E330")
        #expect(r.mentions.map(\.code.description) == ["E330"])
        #expect(r.unmatched == ["E189"])
    }

    /// A bracket slip before `E` is a slip prefix: it needs a class word, as `F476` does; a
    /// quantity in litres is never a code.
    @Test("Bracket slips need additive context", arguments: [
        ("salt, lE 322), sugar", [String]()),
        ("LE 100 ANS", []),
        ("contenu ℮330ml", []),
        ("vitamin IE, salt", []),
    ])
    func bracketSlipsNeedContext(text: String, codes: [String]) {
        #expect(S.parser.parse(text).mentions.map(\.code.description) == codes, "\(text)")
    }

    @Test("OCR slips inside codes are repaired when the store knows the result", arguments: [
        ("preservative: E2l1", "E211", "E2l1"),
        ("colour: E1O2", "E102", "E1O2"),
        ("E|02, sugar", "E102", "E|02"),
        ("colours: £129", "E129", "£129"),
        ("colours: €102", "E102", "€102"),
        ("Farbstoff F129", "E129", "F129"),
        ("Emulsifiers (Soya lecithin, E442, F 476)", "E476", "F 476"),
        ("Farbstoff C 129", "E129", "C 129"),
        ("E100, C330, E211", "E330", "C330"),
        ("emulsifier: E47l", "E471", "E47l"),
        ("acid: E33O", "E330", "E33O"),
        ("colour: E15Od", "E150d", "E15Od"),
        ("colour: INS160a1", "E160a(i)", "INS160a1"),
        // A sub-form's `ii` with its thin letters merged into `u`.
        ("raising agents: E500u, E450i", "E500(ii)", "E500u"),
        // The first digit read as a letter after a set-apart prefix, as after a glued one.
        ("colour: E l29", "E129", "E l29"),
        ("sugar, E-I02, salt", "E102", "E-I02"),
        // The opening bracket read as `l`, `I` or `|` before the code (real gold OCR: `IE 471`).
        ("émulsifiant : lE330)", "E330", "lE330"),
        ("EMULSIFIANTS IE 471. 322 DE SOJA", "E471", "IE 471"),
        ("colour: |E150d)", "E150d", "|E150d"),
    ])
    func repairs(text: String, code: String, spanned: String) {
        let r = S.parser.parse(text)
        let m = r.mentions.first { $0.kind == .repaired }
        #expect(m?.code.description == code, "\(text) → \(r.mentions.map(\.code))")
        if let m { #expect(S.spanText(text, m) == spanned) }
        #expect(m.map { $0.confidence < 1 } ?? false)
    }

    @Test("A sub-form `(ii)` read as `(u)` in brackets; Spanish `u` between codes stays a word", arguments: [
        ("gasificantes (E 575, E 500(u))", ["E575", "E500(ii)"]),
        ("agente de tratamiento: INS 500(u)", ["E500(ii)"]),
        ("acidulantes: E 330 u E 331", ["E330", "E331"]),
    ])
    func subFormReadAsU(text: String, codes: [String]) {
        #expect(S.parser.parse(text).mentions.map(\.code.description) == codes, "\(text)")
    }
}
