import Testing
@testable import EcodexVision

/// When a quarter turn the orientation test chose is checked, and when the page as it came wins.
@Suite struct QuarterTurnCheckTests {
    static func words(_ texts: [String], confidence: Double = 90) -> [RecognizedWord] {
        texts.enumerated().map { i, t in
            RecognizedWord(text: t, confidence: confidence, left: i * 50, top: 0, right: i * 50 + 40, bottom: 20, line: 0)
        }
    }

    static let list = words(Array(repeating: "Zucker", count: 20))  // 120 sure letters
    static let little = words(["Zucker", "Salz"])                   // 10 sure letters
    static let noise = words(["Zucker", "Salz", "Wasser", "Milch"], confidence: 30)

    @Test func sureLettersCountOnlySureWordsOfTwoLettersOrMore() {
        #expect(QuarterTurnCheck.sureLetters(Self.words(["Zucker", "a", "E330", "zu"])) == 8)
        #expect(QuarterTurnCheck.sureLetters(Self.noise) == 0)
    }

    struct CheckRow: CustomTestStringConvertible, Sendable {
        var name: String
        var quarterTurns: Int
        var turned: [RecognizedWord]
        var cut = false
        var checks: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        CheckRow(name: "a quarter turn that read little is checked", quarterTurns: 1, turned: little, checks: true),
        CheckRow(name: "three quarters that read only noise is checked", quarterTurns: 3, turned: noise, checks: true),
        CheckRow(name: "a quarter turn that read a list is kept unchecked", quarterTurns: 1, turned: list, checks: false),
        CheckRow(name: "no turn: nothing to check", quarterTurns: 0, turned: little, checks: false),
        CheckRow(name: "a half turn is not a quarter turn", quarterTurns: 2, turned: little, checks: false),
        CheckRow(name: "a reading cut short is not checked", quarterTurns: 1, turned: little, cut: true, checks: false),
    ])
    func whenAQuarterTurnIsChecked(_ row: CheckRow) {
        #expect(QuarterTurnCheck.checks(quarterTurns: row.quarterTurns, turned: row.turned, cut: row.cut) == row.checks)
    }

    struct KeepRow: CustomTestStringConvertible, Sendable {
        var name: String
        var upright: [RecognizedWord]
        var cut = false
        var turned: [RecognizedWord]
        var keepsUpright: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        KeepRow(name: "the page as it came reads a list where the turn read little", upright: list, turned: little,
                keepsUpright: true),
        KeepRow(name: "the page as it came reads a list where the turn read noise", upright: list, turned: noise,
                keepsUpright: true),
        KeepRow(name: "as little text as it came: the turn stays", upright: little, turned: little, keepsUpright: false),
        KeepRow(name: "noise both ways: the turn stays", upright: noise, turned: noise, keepsUpright: false),
        KeepRow(name: "a reading as it came that was cut short never wins", upright: list, cut: true, turned: little,
                keepsUpright: false),
        KeepRow(name: "not clearly more text: the turn stays", upright: words(Array(repeating: "Zucker", count: 5)),
                turned: words(Array(repeating: "Zucker", count: 4)), keepsUpright: false),
        KeepRow(name: "a little more text than nothing is not enough", upright: words(["Zucker", "Salz"]), turned: [],
                keepsUpright: false),
    ])
    func whichReadingIsKept(_ row: KeepRow) {
        #expect(QuarterTurnCheck.keepsUpright(row.upright, cut: row.cut, over: row.turned) == row.keepsUpright)
    }
}

/// The check on Tesseract: a label turned a quarter by mistake reads little, and is read again as it came.
@Suite struct QuarterTurnReadingTests {
    @Test func aWrongQuarterTurnIsUndoneAndARightOneKept() throws {
        let upright = try Preprocessor.run(try ImageLoader.load(Fixtures.real("irockel_image-5.jpg"))).image
        let engine = try TesseractEngine(dataPath: TessData.folder(nil), languages: ["eng"], pageSegMode: 6)
        // Preprocessing turned the upright label a quarter: it reads little, and reads more as it came.
        let wrong = try upright.turned(1)
        let piece = Piece(image: wrong, steps: [], map: PhotoMap(), maybeUpsideDown: false, textHeight: nil, quarterTurns: 1)
        let first = try engine.recognize(wrong)
        let kept = try #require(try TesseractLabelReader.checkQuarterTurn(piece, first, with: engine, mode: nil,
                                                                         tryInverted: false, timeLeft: { 600_000 }))
        #expect(kept.turns == 3)
        #expect(kept.words.map(\.text).joined(separator: " ").contains("Red"))
        // A quarter turn that made the label upright reads it well, and is not checked.
        let right = Piece(image: upright, steps: [], map: PhotoMap(), maybeUpsideDown: false, textHeight: nil, quarterTurns: 3)
        let read = try engine.recognize(upright)
        #expect(try TesseractLabelReader.checkQuarterTurn(right, read, with: engine, mode: nil, tryInverted: false,
                                                          timeLeft: { 600_000 }) == nil)
    }
}
