import Testing
@testable import EcodexVision

/// Which lines are read again alone, how they are cut and enlarged, and when their new words are kept.
@Suite struct LineRetryTests {
    static func word(_ text: String, _ confidence: Double, line: Int, x: Int, y: Int, height: Int = 20) -> RecognizedWord {
        RecognizedWord(text: text, confidence: confidence, left: x, top: y, right: x + 12 * text.count,
                       bottom: y + height, line: line)
    }

    /// A page: two sure lines of list print, an unsure line of it, an unsure heading and unsure specks.
    static let page: [RecognizedWord] = [
        word("Zutaten:", 92, line: 0, x: 10, y: 10), word("Zucker,", 90, line: 0, x: 120, y: 10),
        word("Wasser,", 91, line: 1, x: 10, y: 40), word("Salz", 88, line: 1, x: 120, y: 40),
        word("Sauerungs", 40, line: 2, x: 10, y: 70), word("rnittel", 35, line: 2, x: 140, y: 70),
        word("ZUTATENLISTE", 30, line: 3, x: 10, y: 100, height: 60),
        word("il", 20, line: 4, x: 10, y: 170), word(":.", 10, line: 4, x: 40, y: 170),
    ]

    @Test func onlyUnsureLinesOfListPrintWithLettersAreReadAgain() throws {
        let lines = LineRetry.unsureLines(Self.page)
        #expect(lines.map(\.number) == [2])
        let line = try #require(lines.first)
        #expect((line.x, line.y, line.height) == (10, 70, 20))
    }

    @Test func noSureLineMeansNoSizeToCompareWith() {
        #expect(LineRetry.unsureLines(Self.page.filter { $0.line >= 2 }).isEmpty)
    }

    @Test func atMostMaxLinesAreReadAgainTheLongestFirst() {
        var words = [Self.word("Zutaten", 95, line: 0, x: 0, y: 0)]
        for n in 1...10 { words.append(Self.word(String(repeating: "x", count: 6 + n), 30, line: n, x: 0, y: 30 * n)) }
        let lines = LineRetry.unsureLines(words)
        #expect(lines.count == LineRetry.maxLines)
        #expect(lines.map(\.number) == Array((5...10).reversed()))
    }

    @Test func theCropHasAMarginAndBringsThePrintToTheTargetHeight() throws {
        let line = LineRetry.Line(number: 0, x: 100, y: 50, width: 300, height: 20, confidence: 40, letters: 20)
        let c = try #require(LineRetry.crop(line, imageWidth: 1000, imageHeight: 500))
        #expect((c.x, c.y, c.width, c.height) == (90, 40, 320, 40))
        #expect(abs(c.scale * LineRetry.capShare * 20 - LineRetry.targetCapHeight) < 0.01)
    }

    @Test func theCropStaysInsideTheImageAndItsSizeIsBounded() throws {
        let edge = LineRetry.Line(number: 0, x: 0, y: 0, width: 50, height: 10, confidence: 40, letters: 8)
        let c = try #require(LineRetry.crop(edge, imageWidth: 60, imageHeight: 12))
        #expect((c.x, c.y, c.width, c.height) == (0, 0, 55, 12))
        #expect(c.scale == LineRetry.maxScale)
        let long = LineRetry.Line(number: 0, x: 0, y: 0, width: 20_000, height: 10, confidence: 40, letters: 8)
        let l = try #require(LineRetry.crop(long, imageWidth: 30_000, imageHeight: 100))
        #expect(Double(l.width * l.height) * l.scale * l.scale <= Double(LineRetry.maxCropPixels) + 1)
    }

    @Test func printBigEnoughAlreadyIsNotEnlarged() {
        let big = LineRetry.Line(number: 0, x: 0, y: 0, width: 500, height: 80, confidence: 40, letters: 20)
        #expect(LineRetry.crop(big, imageWidth: 1000, imageHeight: 1000) == nil)
    }

    @Test func newWordsAreKeptOnlyWhenSurer() {
        let old = Self.page.filter { $0.line == 2 }
        let sure = [Self.word("Säuerungsmittel:", 85, line: 0, x: 0, y: 0)]
        let notSurer = [Self.word("Sauerungsmittel", 45, line: 0, x: 0, y: 0)]
        #expect(LineRetry.keeps(sure, over: old))
        #expect(!LineRetry.keeps(notSurer, over: old))
        #expect(!LineRetry.keeps([Self.word("E", 99, line: 0, x: 0, y: 0)], over: old))
    }

    @Test func keptWordsTakeTheLinesPlaceWithBoxesInThePage() {
        let again = [RecognizedWord(text: "Säuerungsmittel:", confidence: 85, left: 20, top: 20, right: 620, bottom: 100, line: 0)]
        let out = LineRetry.replacing(Self.page, line: 2, with: again, origin: (x: 5, y: 60), scale: 4)
        #expect(out.map(\.text) == ["Zutaten:", "Zucker,", "Wasser,", "Salz", "Säuerungsmittel:", "ZUTATENLISTE", "il", ":."])
        let w = out[4]
        #expect((w.left, w.top, w.right, w.bottom, w.line) == (10, 65, 160, 85, 2))
    }
}

/// Line retries on Tesseract: a label shrunk until its lines read unsure reads surer line by line, enlarged.
@Suite struct LineRetryReadingTests {
    @Test func unsureLinesOfSmallPrintReadSurerAlone() throws {
        let page = try Preprocessor.run(try ImageLoader.load(Fixtures.real("irockel_image-5.jpg"))).image
        // A third of the size: print of about 8 px, where Tesseract reads lines unsure.
        let small = try page.scaled(1.0 / 3)
        let engine = try TesseractEngine(dataPath: TessData.folder(nil), languages: ["eng"], pageSegMode: 4)
        let first = try engine.recognize(small).words
        let unsure = LineRetry.unsureLines(first)
        try #require(!unsure.isEmpty, "no unsure line at this size: \(first.map(\.text))")
        let again = try TesseractLabelReader.retryUnsureLines(first, in: small, with: engine, tryInverted: false,
                                                              timeLeft: { 600_000 })
        let before = unsure.map(\.confidence).reduce(0, +)
        let after = unsure.map { line in ReadingPlan.meanConfidence(again.filter { $0.line == line.number }) }.reduce(0, +)
        #expect(after > before, "\(first.map(\.text)) → \(again.map(\.text))")
        #expect(Set(again.map(\.line)) == Set(first.map(\.line)), "every line keeps its number")
    }
}
