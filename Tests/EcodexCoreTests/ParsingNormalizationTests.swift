import Testing
import EcodexCore

@Suite("Parsing: normalisation, spans and OCR confidence")
struct ParsingNormalizationTests {
    typealias S = ParsingTestSupport

    @Test("Spans point at the original text", arguments: [
        ("Zucker, Säuerungsmittel: Citronensäure, Farbstoff: E 1 2 0", ["Citronensäure", "E 1 2 0"]),
        ("émulsifiant : lécithine de soja, E-322", ["lécithine de soja", "E-322"]),
        ("Sugar,\u{00A0}\u{00A0}E\u{2011}330 and  tartrazine", ["E\u{2011}330", "tartrazine"]),
        ("Wasser, Farbstoffe (E 124, E 122)", ["E 124", "E 122"]),
        ("colours E (124, 122, 133)", ["124", "122", "133"]),
        ("ΚΑΡΑΜΈΛΑ, \u{0415}330", ["\u{0415}330"]),
    ])
    func spans(text: String, pieces: [String]) {
        let r = S.parser.parse(text)
        #expect(r.mentions.map { S.spanText(text, $0) } == pieces, "\(text)")
    }

    @Test("A word hyphenated across a line break is rejoined", arguments: [
        ("Emulgator: Soja-\nlecithin, Zucker", "E322", "Soja-\nlecithin"),
        ("sugar, tartra-\n  zine", "E102", "tartra-\n  zine"),
        ("acidifiant : acide ci-\r\ntrique", "E330", "acide ci-\r\ntrique"),
    ])
    func hyphenation(text: String, code: String, spanned: String) {
        let r = S.parser.parse(text)
        #expect(r.mentions.map(\.code.description) == [code], "\(text)")
        if let m = r.mentions.first { #expect(S.spanText(text, m) == spanned) }
    }

    @Test("A word split by a hyphen inside a line is read whole when only that spelling is known", arguments: [
        ("emulsionanti: mono- e di-gliceridi degli acidi grassi, sale", "E471"),
        ("Säuerungsmittel: Citronen-säure", "E330"),
        ("Zucker, Citronen-Säure", "E330"),
    ])
    func hyphenInsideALine(text: String, code: String) {
        S.expectCodes(text, [code])
    }

    @Test("A real hyphen between words stays", arguments: ["Glucose-\nSirup, Zucker"])
    func hyphenKept(text: String) {
        S.expectCodes(text, [])
    }

    @Test("Diacritics and case do not matter", arguments: [
        "ACIDE CITRIQUE", "acide citrique", "Acíde Cîtrique", "ácido cítrico", "ACIDO CITRICO",
    ])
    func diacritics(text: String) {
        S.expectCodes(text, ["E330"])
    }

    @Test("Same additive twice gives two mentions, in label order")
    func twice() {
        let r = S.parser.parse("E330, sugar, citric acid, E102, E330")
        #expect(r.mentions.map(\.code.description) == ["E330", "E330", "E102", "E330"])
        #expect(r.mentions.map(\.span.lowerBound) == r.mentions.map(\.span.lowerBound).sorted())
    }

    static func words(_ text: String, confidence: (String) -> Double) -> [OCRWord] {
        text.split(separator: " ").map {
            OCRWord(text: String($0), confidence: confidence(String($0)), box: BoundingBox(x: 0, y: 0, width: 1, height: 1), line: 0)
        }
    }

    @Test("OCR word confidences carry into mentions")
    func ocrConfidence() {
        let text = "Sugar, E102, tartrazine"
        let words = Self.words(text) { $0.hasPrefix("E102") ? 50 : 96 }
        let r = S.parser.parse(text, words: words)
        #expect(r.mentions.count == 2)
        #expect(abs(r.mentions[0].confidence - 0.5) < 0.001)
        #expect(abs(r.mentions[1].confidence - 0.96) < 0.001)
    }

    @Test("Low OCR confidence widens fuzzy matching on short names, under a class word of their function")
    func lowConfidenceWidens() {
        let text = "Thickener: pectln"
        #expect(S.parser.parse(text).mentions.isEmpty)
        let words = Self.words(text) { $0 == "pectln" ? 35 : 95 }
        let r = S.parser.parse(text, words: words)
        #expect(r.mentions.map(\.code.description) == ["E440"])
        #expect(r.mentions.first?.kind == .fuzzy)
        #expect((r.mentions.first?.confidence ?? 1) < 0.35)
        // Without the class word, an unsure word one slip from a short name is OCR noise
        // more often than not on real photos (see RealPhotoParsingTests).
        let bare = "Sugar, pectln"
        #expect(S.parser.parse(bare, words: Self.words(bare) { $0 == "pectln" ? 35 : 95 }).mentions.isEmpty)
    }
}
