import Foundation
import Testing
@testable import EcodexCore

/// Rules for text read from real phone photos: OCR noise must not turn into additives.
@Suite struct RealPhotoParsingTests {
    /// OCR words for `text` (split on spaces, one line), every word at `confidence`.
    static func words(_ text: String, confidence: Double) -> [OCRWord] {
        text.split(separator: " ").map {
            OCRWord(text: String($0), confidence: confidence, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), line: 0)
        }
    }

    static func codes(_ text: String, confidence: Double?) -> [String] {
        ParsingTestSupport.codes(text, words: confidence.map { words(text, confidence: $0) })
    }

    /// Short names (`PES`, four letters or fewer) and one-slip names read from unsure words
    /// count only under a class word of their own function, or when OCR was sure.
    @Test(arguments: [
        // text, word confidence (nil: typed), expected codes
        ("Zucker, PES, Salz", 50.0 as Double?, [String]()),
        ("Zucker, PES, Salz", nil, ["E407a"]),
        ("Zucker, PES, Salz", 95.0, ["E407a"]),
        ("Verdickungsmittel: PES, Salz", 50.0, ["E407a"]),
        // US labels put the function after the name.
        ("LECITHIN, PES, THICKENER; SALT", 50.0, ["E322", "E407a"]),
        // A class word of another function does not vouch for it: `ADA` is a flour treatment agent.
        ("Säuerungsmittel: Citronensäure, ADA", 50.0, ["E330"]),
        // Umlauts blurred into other letters are one slip (`ä` read as `i`).
        ("Säuerungsmittel: Citronensiure", 50.0, ["E330"]),
        ("Zucker, Citronensiure", 50.0, ["E330"]),
        // `pectln` (a slip of pectin, six letters) reaches pectin only from unsure words...
        ("sugar, pectln, salt", nil, []),
        // ...and then only under a class word of pectin's own function.
        ("sugar, pectln, salt", 50.0, []),
        ("sugar, thickener: pectln, salt", 50.0, ["E440"]),
        ("sucre, épaississant: pectlne, sel", 50.0, ["E440"]),
        ("sugar, colour: pectln, salt", 50.0, []),
        // A slip in a long word is rarely chance: it counts from unsure words too.
        ("sugar, tartrazlne, salt", 50.0, ["E102"]),
        // Exact names of five letters or more are not affected by word confidence.
        ("Zucker, Tartrazin, Salz", 40.0, ["E102"]),
        // A class word slipped in a short unsure word (`faree` for `Farbe`) is often chance on a
        // garbled page: it vouches for no short or slipped name (real-dev 07470: `prta`, silver)...
        ("Zucker, faree (prta), Salz", 40.0, []),
        // ...a long one still does, and codes under it need no vouching.
        ("Zucker, Verdickungsmitel: PES, Salz", 50.0, ["E407a"]),
        ("Zucker, faree (E102), Salz", 40.0, ["E102"]),
        // A class word well after the name in its item is a sentence, not the name's function
        // (real-dev 07441 b4: `kann` read `tann`, tannin, by `stabilisants` eight words on)...
        ("daher tann sich absetzen wie tgitientyaucuns stabilisants.", 50.0, []),
        // ...right after the name, or before it without a colon, it still vouches.
        ("Zucker, PES Verdickungsmittel, Salz", 50.0, ["E407a"]),
        ("Zucker, Verdickungsmittel PES, Salz", 50.0, ["E407a"]),
        // A slipped, unsure name with a slipped saturation word four words on is the nutrition
        // table (real-dev 09297 b3: `davon gesättigte Fettsäuren | acides gras saturés`)...
        ("AivOn peratiigte Fettsduren | GOM acides pras satares", 20.0, []),
        // ...while the same slip under its class word, far from any table word, is fatty acids.
        ("Trennmittel: Fettsduren, Zucker", 20.0, ["E570"]),
        // `b` and `d` are mirror shapes: blurred, one reads for the other (real-dev 09809).
        ("Zutaten: Wasser, acide cardonique", 40.0, ["E290"]),
        ("Zutaten: Wasser, acide cardonique", nil, ["E290"]),
    ])
    func unsureNamesNeedContextOrConfidence(_ text: String, _ confidence: Double?, _ expected: [String]) {
        #expect(Self.codes(text, confidence: confidence) == expected, "\(text) at \(confidence.map { "\($0)" } ?? "typed")")
    }

    /// A name that is also a nutrient counts under its class word, but not in the nutrition table.
    @Test(arguments: [
        ("antioxidant: vitamin C, salt", ["E300"]),
        ("antioxidant: vitamin C, saturates 2 g", []),
        ("Antioxidationsmittel: Vitamin C. Nährwerte je 100 g", []),
    ])
    func nutrientNamesInTheNutritionTableAreNotAdditives(_ text: String, _ expected: [String]) {
        #expect(Self.codes(text, confidence: nil) == expected, "\(text)")
        #expect(Self.codes(text, confidence: 50) == expected, "\(text)")
    }

    /// A quantity after the ℮ sign (or an E read for it) is not a code, with or without a space before its unit.
    @Test(arguments: ["℮ 170g", "e 170g", "e180ml", "E 250 g", "Inhalt e 500ml", "poids net: e 170G"])
    func quantitiesAreNotCodes(_ text: String) {
        #expect(Self.codes(text, confidence: nil).isEmpty, "\(text)")
    }

    /// A code spelled in single digits set apart, read unsure (`℮ 250 g` with its `g` misread
    /// as `S`, real frame 07440), needs its class word or a code beside it; typed or read surely
    /// it counts as before.
    @Test(arguments: [
        // text, word confidence (nil: typed), expected codes
        ("Margarine 80% E 2 5 0 S Zutaten: Sheabutter", 50.0 as Double?, [String]()),
        ("Margarine 80% E 2 5 0 S Zutaten: Sheabutter", 95.0, ["E250"]),
        ("Margarine 80% E 2 5 0 S Zutaten: Sheabutter", nil, ["E250"]),
        ("Konservierungsstoff: E 2 5 0, Salz", 50.0, ["E250"]),
        ("Farbstoffe: E 1 0 2, E 1 2 9", 50.0, ["E102", "E129"]),
        // A class word of another function does not vouch for it (real-dev 07440).
        ("Farbstoff: Beta-Carotin, Margarine 80% E 2 5 0 S", 50.0, ["E160a"]),
        // Codes in one piece are not affected.
        ("Margarine 80% E250 Zutaten: Sheabutter", 50.0, ["E250"]),
    ])
    func spelledOutCodesFromUnsureWordsNeedContext(_ text: String, _ confidence: Double?, _ expected: [String]) {
        #expect(Self.codes(text, confidence: confidence) == expected, "\(text) at \(confidence.map { "\($0)" } ?? "typed")")
    }

    /// A code broken over two lines (`e` ending one, `222` starting the next), read unsure, needs
    /// its class word or a code beside it (real-dev 07549 b2: letter soup read as E222); typed or
    /// read surely, and on one line, it counts as before.
    @Test(arguments: [
        // text, word confidence (nil: typed), expected codes
        ("Lda LANN ANDERE iia MN e\n222 10574886", 40.0 as Double?, [String]()),
        ("Lda LANN ANDERE iia MN e\n222 10574886", 95.0, ["E222"]),
        ("Lda LANN ANDERE iia MN e\n222 10574886", nil, ["E222"]),
        ("Konservierungsstoff: E\n222, Salz", 40.0, ["E222"]),
        ("Farbstoffe: E 102, E\n129", 40.0, ["E102", "E129"]),
        ("Lda LANN ANDERE iia MN E222 10574886", 40.0, ["E222"]),
    ])
    func codesBrokenOverLinesFromUnsureWordsNeedContext(_ text: String, _ confidence: Double?, _ expected: [String]) {
        let words = confidence.map { c in
            text.split(whereSeparator: \.isWhitespace).map {
                OCRWord(text: String($0), confidence: c, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), line: 0)
            }
        }
        #expect(ParsingTestSupport.codes(text, words: words) == expected, "\(text) at \(confidence.map { "\($0)" } ?? "typed")")
    }

    @Test func codesBesideQuantitiesStillCount() {
        #expect(Self.codes("Farbstoff: E 170, 250 g", confidence: nil) == ["E170"])
        #expect(Self.codes("E160a, 180 ml", confidence: nil) == ["E160a"])
    }

    /// A quantity in a table whose rule OCR read as `|` right after its unit (`300 mg|`) is not
    /// a code: real-dev `09820` b1, a vitamin tube's table read `⟨jšox*e⟩ 300 mg|`, gave E300.
    @Test(arguments: ["jšox*e 300 mg| L:", "Magnesium e 300 mg||", "E 120 g|"])
    func quantitiesBeforeATableRuleAreNotCodes(_ text: String) {
        #expect(Self.codes(text, confidence: nil).isEmpty, "\(text)")
    }

    /// `2044.550` in an address line under a class header is not the bare code 550.
    @Test(arguments: ["acidifiant: acide lactique, arôme. 2044.550", "acidifiant: 1,330 kg", "colorant: E150d, 12,330"])
    func tailsOfLongerNumbersAreNotBareCodes(_ text: String) {
        #expect(!Self.codes(text, confidence: nil).contains { $0.hasPrefix("E550") || $0.hasPrefix("E330") }, "\(text)")
    }

    @Test func bareNumbersUnderAClassWordStillCount() {
        #expect(Self.codes("acidity regulators (330, 331)", confidence: nil) == ["E330", "E331"])
    }

    /// Unknown codes from unsure words are noise; from sure words (or typed) the shopper sees them.
    @Test func unknownCodesFromUnsureWordsAreDropped() {
        let text = "Zucker, E800, Salz"
        #expect(ParsingTestSupport.parser.parse(text, words: Self.words(text, confidence: 40)).unmatched.isEmpty)
        #expect(ParsingTestSupport.parser.parse(text, words: Self.words(text, confidence: 95)).unmatched == ["E800"])
        #expect(ParsingTestSupport.parser.parse(text).unmatched == ["E800"])
    }
}

/// Several frames of one label fused into one result.
@Suite struct BurstFusionTests {
    static func mention(_ code: String, _ confidence: Double, kind: MatchKind = .name) -> Mention {
        Mention(code: ECode(code)!, matchedText: [code], span: 0..<1, kind: kind, confidence: confidence)
    }

    static func frame(_ mentions: [Mention], unmatched: [String] = []) -> ParseResult {
        ParseResult(mentions: mentions, unmatched: unmatched)
    }

    @Test func twoFramesAgreeingCountEvenWhenWeak() {
        let fused = BurstFusion.fuse([Self.frame([Self.mention("E322", 0.5)]), Self.frame([]), Self.frame([Self.mention("E322", 0.6)])])
        #expect(fused.mentions.map(\.code.description) == ["E322"])
        #expect(fused.mentions.first?.confidence == 0.6, "the surest reading is kept")
    }

    @Test func oneWeakFrameIsDropped() {
        let fused = BurstFusion.fuse([Self.frame([Self.mention("E407a", 0.5)]), Self.frame([]), Self.frame([])])
        #expect(fused.mentions.isEmpty)
    }

    @Test func oneSureFrameCounts() {
        let fused = BurstFusion.fuse([Self.frame([Self.mention("E330", 0.95, kind: .code)]), Self.frame([]), Self.frame([])])
        #expect(fused.mentions.map(\.code.description) == ["E330"])
    }

    /// A sensitivity the label names in so many words counts from any frame: whole words only.
    @Test func aSensitivityNamedInAnyFrameIsKept() {
        var second = Self.frame([])
        second.named = [NamedSensitivity(sensitivity: .sulphites, text: "sulfites")]
        var third = Self.frame([])
        third.named = [NamedSensitivity(sensitivity: .sulphites, text: "Sulfite")]
        #expect(BurstFusion.fuse([Self.frame([]), second, third], lead: 0).named == second.named)
        #expect(BurstFusion.fuse([Self.frame([]), Self.frame([])]).named.isEmpty)
    }

    @Test func theLeadFrameCountsAsASinglePhotoWould() {
        let frames = [Self.frame([Self.mention("E407a", 0.5)]), Self.frame([]), Self.frame([Self.mention("E322", 0.4)])]
        #expect(BurstFusion.fuse(frames, lead: 0).mentions.map(\.code.description) == ["E407a"])
        #expect(BurstFusion.fuse(frames, lead: 2).mentions.map(\.code.description) == ["E322"])
        #expect(BurstFusion.fuse(frames, lead: 1).mentions.isEmpty, "weak readings in other frames still need a second")
    }

    @Test func parentAndChildAgreeAndTheSpecificCodeWins() {
        let fused = BurstFusion.fuse([Self.frame([Self.mention("E150", 0.6)]), Self.frame([Self.mention("E150d", 0.9, kind: .code)])])
        #expect(fused.mentions.map(\.code.description) == ["E150d"])
    }

    @Test func unknownCodesNeedTwoFrames() {
        let fused = BurstFusion.fuse([Self.frame([], unmatched: ["E800", "E999"]), Self.frame([], unmatched: ["E999"]), Self.frame([])])
        #expect(fused.unmatched == ["E999"])
    }

    @Test func aSingleFrameIsPassedThrough() {
        let one = Self.frame([Self.mention("E407a", 0.3)], unmatched: ["E800"])
        #expect(BurstFusion.fuse([one]) == one)
    }

    /// The pipeline reads every frame and prints one result: the additive seen weakly
    /// in two frames counts, noise seen weakly in one does not.
    @Test func pipelineFusesFrames() throws {
        let reader = FrameReader([
            "a.jpg": ("Zutaten: Zucker, Citronensaure, PES", 55),
            "b.jpg": ("Zutaten: Zucker, Citronensaure", 55),
            "c.jpg": ("Zutaten: Zucker", 90),
        ])
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: reader)
        let r = try pipeline.scan(.burst(paths: ["a.jpg", "b.jpg", "c.jpg"]), options: ScanOptions())
        #expect(r.additives.map(\.code.description) == ["E330"])
        #expect(r.ocr?.frames == 3)
        #expect(r.ocr?.frame == "c.jpg", "the text shown is the surest frame's")
        #expect(r.input == "a.jpg (+2 frames)")
    }

    /// A burst finds at least what its best-read frame finds alone: a weak reading there
    /// counts without a second frame.
    @Test func aBurstFindsWhatItsBestFrameFindsAlone() throws {
        let reader = FrameReader([
            "a.jpg": ("Zutaten: Zucker, Salz", 50),
            "b.jpg": ("Zutaten: Zucker, Citronensaure", 60),
            "c.jpg": ("Zutaten: Zucker, PES", 45),
        ])
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: reader)
        let alone = try pipeline.scan(.image(path: "b.jpg"), options: ScanOptions())
        #expect(alone.additives.map(\.code.description) == ["E330"])
        let r = try pipeline.scan(.burst(paths: ["a.jpg", "b.jpg", "c.jpg"]), options: ScanOptions())
        #expect(r.additives.map(\.code.description) == ["E330"])
        #expect(r.ocr?.frame == "b.jpg")
    }

    /// The lead is the frame that read the ingredient list surely, not the one that read big
    /// brand print best: a weak reading in the list frame counts as it would alone (real frames
    /// of 09773: the brand text read at mean confidence 63, the list at 54 in another frame).
    @Test func theLeadFrameIsTheOneThatReadTheList() throws {
        let reader = FrameReader([
            "a.jpg": ("Ricola Original Swiss Herb Drops 1930", 92),
            "b.jpg": ("Zutaten: Zucker, Glukosesirup, Citronensaure, Salz", 65),
            "c.jpg": ("Zutaten: Zucker", 40),
        ])
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: reader)
        let r = try pipeline.scan(.burst(paths: ["a.jpg", "b.jpg", "c.jpg"]), options: ScanOptions())
        #expect(r.additives.map(\.code.description) == ["E330"])
        #expect(r.ocr?.frame == "b.jpg")
    }

    /// Frames after the first are read while the burst's time lasts. A frame the time ran out
    /// on still lends its evidence, but never leads: here the cut frame read more list words
    /// than the first and would have made its weak E129 count on its own.
    @Test func framesTheTimeRanOutOnCountButNeverLead() throws {
        let reader = FrameReader([
            "a.jpg": ("Zutaten: Zucker, Farbstoff: E102", 70),
            "b.jpg": ("Zutaten: Zucker, Glukosesirup, Salz, Zitronensaft, Farbstoffe: E102, E129", 70),
            "c.jpg": ("", 0),
        ], outOfTime: ["b.jpg", "c.jpg"])
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: reader)
        let r = try pipeline.scan(.burst(paths: ["a.jpg", "b.jpg", "c.jpg"]), options: ScanOptions())
        #expect(reader.within == .some(ScanOptions.defaultBurstSeconds))
        #expect(r.additives.map(\.code.description) == ["E102"], "two frames agree on E102; E129 is one weak reading")
        #expect(r.ocr?.frame == "a.jpg")
        #expect(r.warnings.map(\.message).contains("Time ran out: 1 of 3 photos were read in full."), "\(r.warnings)")
        #expect(!r.warnings.contains(ScanWarning.readingStopped), "running out of burst time is not a hard photo")
        // Without a limit the reader is told so, and nothing is said about time.
        var options = ScanOptions()
        options.burstSeconds = nil
        let full = FrameReader(["a.jpg": ("colours: E102", 90), "b.jpg": ("colours: E102", 90)])
        let all = try ScanPipeline(catalog: TestRecords.catalog, reader: full).scan(.burst(paths: ["a.jpg", "b.jpg"]), options: options)
        #expect(full.within == .some(nil))
        #expect(!all.warnings.contains { $0.message.hasPrefix("Time ran out") })
    }

    @Test func unreadableFramesAreSkippedWithANote() throws {
        let reader = FrameReader(["a.jpg": ("colours: E102", 90)])
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: reader)
        let r = try pipeline.scan(.burst(paths: ["a.jpg", "missing.jpg"]), options: ScanOptions())
        #expect(r.additives.map(\.code.description) == ["E102"])
        #expect(r.warnings.contains { $0.message.contains("1 of 2 photos could not be read") })
        #expect(throws: InputFileError.missing(path: "missing.jpg", role: .photo)) { try pipeline.scan(.burst(paths: ["missing.jpg"]), options: ScanOptions()) }
    }
}

/// A LabelReader double with a reading per file; other files fail as a missing photo would.
/// Frames in `outOfTime` come back as a burst's time limit leaves them (`OCRResult.outOfTime`).
final class FrameReader: LabelReader {
    let frames: [String: (String, Double)]
    let outOfTime: Set<String>
    /// The time limit the last burst asked for.
    private(set) var within: Double??
    init(_ frames: [String: (String, Double)], outOfTime: Set<String> = []) {
        self.frames = frames
        self.outOfTime = outOfTime
    }
    func read(imageAt path: String) throws -> OCRResult {
        guard let (text, confidence) = frames[path] else { throw InputFileError.missing(path: path, role: .photo) }
        let words = text.split(separator: " ").map {
            OCRWord(text: String($0), confidence: confidence, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), line: 0)
        }
        var result = OCRResult(words: words, steps: ["grayscale"], preprocessMs: 1, ocrMs: 1)
        result.outOfTime = outOfTime.contains(path)
        return result
    }
    func read(burstAt paths: [String], within seconds: Double?) -> [Result<OCRResult, Error>] {
        within = .some(seconds)
        return read(imagesAt: paths)
    }
}

/// The text as read, for the shopper to check and correct.
@Suite struct OCRTextTests {
    @Test func unsureWordsAreMarkedAndLinesKept() {
        let words = [
            OCRWord(text: "Zutaten:", confidence: 92, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), line: 0),
            OCRWord(text: "Zucker,", confidence: 88, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), line: 0),
            OCRWord(text: "Citronensaure", confidence: 41, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), line: 1),
        ]
        let text = OCRSummary.markedText(words)
        #expect(text == "Zutaten: Zucker,\n⟨Citronensaure⟩")
        #expect(OCRResult(words: words, steps: [], preprocessMs: 0, ocrMs: 0).text == "Zutaten: Zucker,\nCitronensaure")
    }

    /// The shopper may pass the marked text back to `scan text` as it is.
    @Test(arguments: ["⟨colours:⟩ ⟨E102⟩, ⟨tartrazine⟩", "Emulgator: ⟨Sojalecithin⟩, ⟨E 471⟩"])
    func markedTextParsesLikeThePlainText(_ marked: String) {
        let plain = String(marked.unicodeScalars.filter { $0 != "⟨" && $0 != "⟩" }.map(Character.init))
        let codes = ParsingTestSupport.codes(marked)
        #expect(!codes.isEmpty)
        #expect(codes == ParsingTestSupport.codes(plain), "\(marked)")
    }

    @Test func jsonCarriesTheTextAndTheTerminalShowsItOnRequest() throws {
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("colours: E102", confidence: 40))
        let r = try pipeline.scan(.image(path: "x.jpg"), options: ScanOptions())
        #expect(r.ocr?.text == "⟨colours:⟩ ⟨E102⟩")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(JSONRenderer.render(r).utf8)) as? [String: Any])
        #expect((obj["ocr"] as? [String: Any])?["text"] as? String == "⟨colours:⟩ ⟨E102⟩")
        #expect(!TextRenderer().render(r).contains("Text as read"))
        let shown = TextRenderer(showText: true).render(r)
        #expect(shown.contains("Text as read"))
        #expect(shown.contains("⟨colours:⟩ ⟨E102⟩"))
    }
}
