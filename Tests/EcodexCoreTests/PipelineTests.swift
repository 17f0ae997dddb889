import Foundation
import Testing
@testable import EcodexCore

/// A LabelReader double: returns fixed words, as Tesseract would.
final class FakeReader: LabelReader {
    let words: [OCRWord]
    let timedOut: Bool
    let printHeight: Double?
    init(_ text: String, confidence: Double = 90, timedOut: Bool = false, printHeight: Double? = nil) {
        self.timedOut = timedOut
        self.printHeight = printHeight
        var words: [OCRWord] = []
        for (l, line) in text.split(separator: "\n").enumerated() {
            for w in line.split(separator: " ") {
                words.append(OCRWord(text: String(w), confidence: confidence, box: BoundingBox(x: 0, y: l * 20, width: 10, height: 10), line: l))
            }
        }
        self.words = words
    }
    func read(imageAt path: String) throws -> OCRResult {
        var r = OCRResult(words: words, steps: ["grayscale"], preprocessMs: 1, ocrMs: 2, timedOut: timedOut)
        r.printHeight = printHeight
        return r
    }
}

@Suite struct PipelineTests {
    @Test func candyLabelInEUHasTwoRedFlags() throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Sugar, glucose syrup,\ncolours: E102, E129."))
        let r = try pipeline.scan(.image(path: "candy.jpg"), options: ScanOptions(preferences: Preferences(region: .eu)))
        #expect(r.additives.map(\.code.description) == ["E102", "E129"])
        #expect(r.additives.allSatisfy { $0.badge == .red })
        #expect(r.additives.allSatisfy { $0.statement == TestRecords.southampton })
        #expect(r.summary == Summary(flagged: 2, neutral: 0, unmatched: 0))
        #expect(r.ocr?.lowConfidence == false)
        #expect(r.preprocessing == ["grayscale"])
    }

    /// `--avoid sulphites` on a label that names sulphites but no additive: the note says so;
    /// a shopper who does not watch for them gets no note.
    @Test func aWatchedSensitivityNamedOnTheLabelGetsANote() throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader(""))
        let text = "Dried apricots, preservative: sulphites. May contain crustaceans."
        let watching = try pipeline.scan(.text(text), options: ScanOptions(preferences: Preferences(sensitivities: [.sulphites])))
        #expect(watching.additives.isEmpty)
        #expect(watching.warnings.first == .namedOnLabel(.sulphites, text: "sulphites"))
        #expect(watching.warnings.first?.message == "The label names sulphites (“sulphites”), which you asked to watch for.")
        #expect(!watching.warnings.contains { $0.message.contains("shellfish") }, "shellfish is not watched")
        let notWatching = try pipeline.scan(.text(text), options: ScanOptions())
        #expect(!notWatching.warnings.contains { $0.message.contains("sulphites") })
    }

    /// A card that carries the caution already says it: no second note (aspartame's PKU caution
    /// stands in for any record's).
    @Test func aCardCarryingTheCautionNeedsNoNote() throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader(""))
        let named = NamedSensitivity(sensitivity: .pku, text: "phenylalanine")
        let parsed = ParseResult(mentions: [Mention(code: ECode("E951")!, matchedText: ["aspartame"], span: 0..<9, kind: .name)],
                                 named: [named])
        let options = ScanOptions(preferences: Preferences(sensitivities: [.pku]))
        #expect(try pipeline.report(from: parsed, input: "t", options: options).warnings.isEmpty)
        let bare = ParseResult(named: [named])
        #expect(try pipeline.report(from: bare, input: "t", options: options).warnings.first == .namedOnLabel(named.sensitivity, text: named.text))
    }

    @Test func lowConfidencePromptsRescan() throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("E330", confidence: 30))
        let r = try pipeline.scan(.image(path: "blurry.jpg"), options: ScanOptions())
        #expect(r.ocr?.lowConfidence == true)
        #expect(r.warnings.first?.message.contains("Rescan") == true)
    }

    /// An unsure reading of small print says so: moving closer helps, better light does not.
    @Test(arguments: [(5.0 as Double?, ScanWarning.printTooSmall(photos: false)), (7.9, ScanWarning.printTooSmall(photos: false)),
                      (8.0, ScanWarning.hardToRead(photos: false)), (14.0, ScanWarning.hardToRead(photos: false)), (nil, ScanWarning.hardToRead(photos: false))])
    func smallPrintPromptsToMoveCloser(height: Double?, prompt: ScanWarning) throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("E330", confidence: 30, printHeight: height))
        let r = try pipeline.scan(.image(path: "far.jpg"), options: ScanOptions())
        #expect(r.warnings.first == prompt)
        #expect(r.ocr?.printHeight == height)
        // A sure reading of small print needs no prompt.
        let sure = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("E330", printHeight: height))
        #expect(try sure.scan(.image(path: "near.jpg"), options: ScanOptions()).warnings.isEmpty)
    }

    @Test func readingCutShortSaysSomeTextMayBeMissing() throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Sugar, E330", timedOut: true))
        let r = try pipeline.scan(.image(path: "dark.jpg"), options: ScanOptions())
        #expect(r.additives.map(\.code.description) == ["E330"])
        #expect(r.warnings.first == ScanWarning.readingStopped)
        let calm = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Sugar, E330"))
        #expect(try !calm.scan(.image(path: "label.jpg"), options: ScanOptions()).warnings.contains(ScanWarning.readingStopped))
    }

    /// A photo whose list could not be read never heads its result like a clean label: the
    /// status says how much was read, by the rule that asks for a rescan, and the headline says it in words.
    @Test(arguments: [
        ("", 90.0, false, ReadStatus.unreadable, "the ingredients could not be read"),
        ("water salt", 30, false, .unreadable, "the ingredients could not be read"),
        ("Sugar, E330", 30, false, .partlyRead, "read only in part: 0 red, 0 yellow, 1 green"),
        ("Sugar, E330", 90, true, .partlyRead, "read only in part: 0 red, 0 yellow, 1 green"),
        ("Sugar, E330", 90, false, .read, "0 red, 0 yellow, 1 green"),
        ("Ingredients: sugar, wheat flour, salt", 90, false, .read, "no additives found"),
        // Two list words and nothing found: likely incomplete, so a rescan is asked and the status agrees.
        ("Sugar, salt", 90, false, .unreadable, "the ingredients could not be read"),
    ] as [(String, Double, Bool, ReadStatus, String)])
    func aPhotoSaysHowMuchOfTheListWasRead(_ text: String, _ confidence: Double, _ cut: Bool, _ status: ReadStatus, _ headline: String) throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader(text, confidence: confidence, timedOut: cut))
        let r = try pipeline.scan(.image(path: "label.jpg"), options: ScanOptions())
        #expect(r.status == status)
        #expect(TextRenderer.headline(r) == headline)
        #expect(TextRenderer().render(r).hasPrefix("label.jpg: \(headline)\n"))
        #expect(HTMLRenderer.render([r]).contains(">label.jpg: \(headline)</h1>"))
        let json = try JSONSerialization.jsonObject(with: Data(JSONRenderer.render(r).utf8)) as? [String: Any]
        #expect(json?["status"] as? String == status.rawValue)
        let causes: Set = ["hard-to-read", "print-too-small", "blurred", "glare", "curved-text", "too-dark"]
        let prompted = r.warnings.contains { causes.contains($0.code) }
        #expect(prompted == (status != .read && !cut), "\(r.warnings.map(\.code))")
    }

    @Test func typedTextIsRead() throws {
        let r = try ScanPipeline(catalog: TestRecords.catalog).scan(.text("water, salt"), options: ScanOptions())
        #expect(r.status == .read)
    }

    @Test func unknownCodesAreUnmatchedWithoutBadge() throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog)
        let r = try pipeline.scan(.text("water, E999, E330"), options: ScanOptions())
        #expect(r.unmatched == ["E999"])
        #expect(r.additives.map(\.code.description) == ["E330"])
        #expect(r.summary.unmatched == 1)
    }

    @Test func nothingFoundOffersBarcodeOrTyping() throws {
        let r = try ScanPipeline(catalog: TestRecords.catalog).scan(.text("water, salt"), options: ScanOptions())
        #expect(r.additives.isEmpty)
        #expect(r.warnings.contains { $0.message.contains("barcode") && $0.message.contains("type") })
    }

    @Test func repeatedAdditiveGivesOneCard() throws {
        let r = try ScanPipeline(catalog: TestRecords.catalog).scan(.text("E330, sugar, E 330"), options: ScanOptions())
        #expect(r.additives.count == 1)
        #expect(r.additives[0].matchedText == ["E330", "E 330"])
    }

    /// A trilingual panel names caramel three ways: `Zuckerkulör` (E150a), `caramel` and
    /// `caramello` (the group, E150). One additive, one card, under the specific code.
    @Test func aGroupCodeBesideItsSpecificFormGivesOneCard() throws {
        let pipeline = try ScanPipeline(catalog: InMemoryCatalog(BasePackTests.pack.additives))
        let r = try pipeline.scan(.text("Farbstoff: Zuckerkulör, Säuerungsmittel: E 330 / colorant: caramel / colorante: caramello"),
                                      options: ScanOptions())
        #expect(r.additives.map(\.code.description) == ["E150a", "E330"])
        #expect(r.additives.first?.matchedText == ["Zuckerkulör", "caramel", "caramello"])
        // Siblings stay apart: two caramels are two additives.
        let two = try pipeline.scan(.text("E150a, E150d, E150"), options: ScanOptions())
        #expect(two.additives.map(\.code.description) == ["E150a", "E150d"])
    }

    @Test func codeLookupFallsBackToParentAndFailsClearly() throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog)
        #expect(try pipeline.scan(.code("E160a(ii)"), options: ScanOptions()).additives.first?.code.description == "E160a")
        #expect(throws: ScanError.unknownCode(ECode("E999")!)) { try pipeline.scan(.code("E999"), options: ScanOptions()) }
        let e = #expect(throws: ScanError.notACode("hello")) { try pipeline.scan(.code("hello"), options: ScanOptions()) }
        #expect(e?.errorClass == .parse)
    }

    @Test func usNamesComeFirstInTheUS() throws {
        let r = try ScanPipeline(catalog: TestRecords.catalog).scan(.code("E102"), options: ScanOptions(preferences: Preferences(region: .us)))
        #expect(r.additives.first?.name == "FD&C Yellow No. 5")
    }
}

@Suite struct RenderingTests {
    func report(region: Region = .eu) throws -> ScanReport {
        try ScanPipeline(catalog: TestRecords.catalog).scan(.text("Sugar, colours: E102, E129, acid: E330, E999"),
                                                                 options: ScanOptions(preferences: Preferences(region: region)))
    }

    @Test func jsonFollowsTheContract() throws {
        let line = JSONRenderer.render(try report())
        #expect(!line.contains("\n"))
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        for key in ["input", "status", "region", "dataVersion", "packVersion", "ocr", "summary", "additives", "unmatched", "barcode", "timingsMs", "warnings"] {
            #expect(obj[key] != nil, "missing \(key)")
        }
        let summary = try #require(obj["summary"] as? [String: Int])
        #expect(summary == ["red": 2, "yellow": 0, "green": 1, "flagged": 2, "neutral": 1, "unmatched": 1])
        let first = try #require((obj["additives"] as? [[String: Any]])?.first)
        #expect(first["code"] as? String == "E102")
        #expect(first["badge"] as? String == "red")
        for key in ["name", "matchedText", "function", "risk", "audience", "diet", "reasons", "references"] {
            #expect(first[key] != nil, "missing additive field \(key)")
        }
    }

    @Test func errorJSON() throws {
        let line = JSONRenderer.render(errorClass: .capture, message: "No file at x.jpg.", input: "x.jpg")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect((obj["error"] as? [String: Any])?["class"] as? String == "capture_error")
    }

    @Test func terminalTextIsReadableWithoutColourAndFits80Columns() throws {
        let text = TextRenderer(color: false).render(try report())
        #expect(text.contains("2 red, 0 yellow, 1 green, 1 not in the additive list"))
        #expect(text.contains("[✖ RED] Tartrazine (E102)"))
        #expect(text.contains("[✓ GREEN] Citric acid (E330)"))
        #expect(text.contains("Informational only, not medical advice."))
        #expect(text.contains("Region EU"))
        #expect(!text.contains("\u{1B}["))
        for line in text.split(separator: "\n") {
            #expect(line.count <= 80, "too wide: \(line)")
        }
    }

    @Test func colourOnlyWhenAsked() throws {
        #expect(TextRenderer(color: true).render(try report()).contains("\u{1B}[1;31m"))
    }
}

@Suite struct HTMLRendererTests {
    @Test(arguments: HTMLRenderer.colorPairs.map(\.name))
    func everyColourPairReachesAA(_ name: String) throws {
        let pair = try #require(HTMLRenderer.colorPairs.first { $0.name == name })
        #expect(HTMLRenderer.contrast(pair.fg, pair.bg) >= 4.5)
    }

    @Test func contrastFormula() {
        #expect(abs(HTMLRenderer.contrast("#000000", "#ffffff") - 21) < 0.01)
        #expect(abs(HTMLRenderer.contrast("#777777", "#ffffff") - 4.48) < 0.02)
    }

    @Test func pageHasTextBadgesEscapingAndDisclaimer() throws {
        let r = try ScanPipeline(catalog: TestRecords.catalog).scan(.text("<b>E102</b> & E330", label: "a<b>.jpg"), options: ScanOptions())
        let html = HTMLRenderer.render([r])
        #expect(html.contains("RED</span>"))
        #expect(html.contains("a&lt;b&gt;.jpg"))
        #expect(!html.contains("<b>E102"))
        #expect(html.contains("Informational only, not medical advice."))
        #expect(html.contains("<html lang=\"en\">"))
        #expect(!html.contains("<script"))
    }
}

@Suite struct CompareTests {
    @Test func badgesPerRegionSideBySide() throws {
        let r = try ScanPipeline(catalog: TestRecords.catalog).scan(.text("E102, E171"), options: ScanOptions(compareRegions: Region.allCases))
        let e102 = try #require(r.additives.first { $0.code.description == "E102" })
        #expect(e102.regionBadges[.eu] == .red && e102.regionBadges[.us] == .yellow)
        let e171 = try #require(r.additives.first { $0.code.description == "E171" })
        #expect(e171.regionBadges[.eu] == .red)
        let text = TextRenderer().render(r)
        #expect(text.contains("Compared across regions:"))
        for line in text.split(separator: "\n") { #expect(line.count <= 80, "too wide: \(line)") }
        let json = JSONRenderer.render(r)
        #expect(json.contains("\"compare\":{"))
    }
}
