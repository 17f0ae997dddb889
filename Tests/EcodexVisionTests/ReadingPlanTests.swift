import EcodexCore
import Testing
@testable import EcodexVision

/// The reading plan from hand-made measurements: no Tesseract, no photo.
@Suite struct ReadingPlanTests {
    static func block(x: Int = 0, y: Int = 0, width: Int = 300, height: Int = 200, lineHeight: Double = 10,
                      letters: Int = 200) -> TextRegions.Block {
        TextRegions.Block(x: x, y: y, width: width, height: height, lineHeight: lineHeight, lines: 5, letters: letters)
    }

    /// One row: a reader's setup and a photo's measurements in, the plan's choices out.
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var policy = ReadingPolicy()
        var photo: PhotoMeasurements
        var cores = 2
        var kind: ReadingPlan.Kind
        var engine: ReadingPlan.Engine
        var secondEngine = false
        var retry: Bool
        var tryInverted = false
        var testDescription: String { name }
    }

    static let frame = PhotoMeasurements(width: 1280, height: 720)
    static let twoBlocks = PhotoMeasurements(width: 1280, height: 720, blocks: [block(letters: 900), block(x: 600, letters: 150)])
    static let rows: [Row] = [
        Row(name: "a small crop is read whole as a crop", photo: .init(width: 600, height: 400),
            kind: .crop, engine: .firstPass, retry: true),
        Row(name: "a frame with no block stands out is read whole as a scene", photo: frame,
            kind: .frame, engine: .scene, retry: false, tryInverted: true),
        Row(name: "without the Latin model a frame is a crop", policy: .init(hasSceneModel: false), photo: frame,
            kind: .crop, engine: .firstPass, retry: true),
        Row(name: "without block finding a frame is a crop", policy: .init(findTextBlocks: false), photo: frame,
            kind: .crop, engine: .firstPass, retry: true),
        Row(name: "explicit languages: no retry", policy: .init(retryBelowConfidence: 0),
            photo: .init(width: 600, height: 400), kind: .crop, engine: .firstPass, retry: false),
        Row(name: "blocks of a scene on two engines when alone", photo: twoBlocks,
            kind: .blocks, engine: .scene, secondEngine: true, retry: false),
        Row(name: "blocks of a scene on one engine in a batch", photo: twoBlocks, cores: 1,
            kind: .blocks, engine: .scene, retry: false),
        Row(name: "little print besides the biggest block: one engine",
            photo: .init(width: 1280, height: 720, blocks: [block(letters: 900), block(x: 600, letters: 99)]),
            kind: .blocks, engine: .scene, retry: false),
        Row(name: "one block: one engine", photo: .init(width: 1280, height: 720, blocks: [block()]),
            kind: .blocks, engine: .scene, retry: false),
        Row(name: "blocks without the Latin model: the first-pass engine, retried", policy: .init(hasSceneModel: false),
            photo: twoBlocks, kind: .blocks, engine: .firstPass, retry: true),
    ]

    @Test(arguments: rows) func planFromMeasurements(_ row: Row) {
        let plan = ReadingPlan(row.photo, policy: row.policy, cores: row.cores)
        #expect(plan.kind == row.kind)
        #expect(plan.engine == row.engine)
        #expect(plan.secondEngine == row.secondEngine)
        #expect(plan.retry == row.retry)
        #expect(plan.tryInverted == row.tryInverted)
        #expect(plan.blocks.count == (row.kind == .blocks ? row.photo.blocks.count : 0))
    }

    /// Page modes: a crop keeps the engine's own (6), blocks read in 4, a whole frame in 4 unless
    /// its print is as big as a panel's (then 6).
    @Test func pageModes() {
        let crop = ReadingPlan(.init(width: 600, height: 400), policy: .init(), cores: 1)
        let frame = ReadingPlan(Self.frame, policy: .init(), cores: 1)
        let blocks = ReadingPlan(Self.twoBlocks, policy: .init(), cores: 1)
        #expect(crop.pageSegMode(printHeight: 30) == nil)
        #expect(blocks.pageSegMode(printHeight: 30) == 4)
        #expect(frame.pageSegMode(printHeight: nil) == 4)
        #expect(frame.pageSegMode(printHeight: 6) == 4)
        #expect(frame.pageSegMode(printHeight: 11.9) == 4)
        #expect(frame.pageSegMode(printHeight: 12) == 6)
    }

    /// Blocks are read top to bottom, then left to right within a row.
    @Test func blocksInReadingOrder() {
        let lowLeft = Self.block(x: 0, y: 400), topRight = Self.block(x: 700, y: 5), topLeft = Self.block(x: 10, y: 0)
        let plan = ReadingPlan(.init(width: 1280, height: 720, blocks: [lowLeft, topRight, topLeft]), policy: .init(), cores: 1)
        #expect(plan.blocks == [topLeft, topRight, lowLeft])
    }

    /// The whole-photo engine starts from the header only when the photo cannot be a scene.
    @Test func engineFromTheHeader() {
        #expect(ReadingPlan.firstPassFromHeader(width: 699, height: 2000, policy: .init()))
        #expect(!ReadingPlan.firstPassFromHeader(width: 700, height: 700, policy: .init()))
        #expect(ReadingPlan.firstPassFromHeader(width: 1280, height: 720, policy: .init(hasSceneModel: false)))
        #expect(ReadingPlan.firstPassFromHeader(width: 1280, height: 720, policy: .init(findTextBlocks: false)))
    }

    static func words(_ confidences: [Double], text: String = "sugar") -> [RecognizedWord] {
        confidences.enumerated().map { i, c in
            RecognizedWord(text: text, confidence: c, left: i * 10, top: 0, right: i * 10 + 8, bottom: 10, line: 0)
        }
    }

    /// A piece that may be upside down is read turned only when upright was unsure and complete;
    /// the turned reading wins only when complete and surer by the margin.
    @Test func halfTurns() {
        #expect(ReadingPlan.triesHalfTurn(maybeUpsideDown: true, first: Self.words([60]), cut: false))
        #expect(!ReadingPlan.triesHalfTurn(maybeUpsideDown: true, first: Self.words([80]), cut: false))
        #expect(!ReadingPlan.triesHalfTurn(maybeUpsideDown: true, first: Self.words([60]), cut: true))
        #expect(!ReadingPlan.triesHalfTurn(maybeUpsideDown: false, first: Self.words([60]), cut: false))
        #expect(ReadingPlan.keepsTurned(Self.words([71]), cut: false, over: Self.words([60])))
        #expect(!ReadingPlan.keepsTurned(Self.words([70]), cut: false, over: Self.words([60])))
        #expect(!ReadingPlan.keepsTurned(Self.words([90]), cut: true, over: Self.words([60])))
    }

    /// Default languages read English first and retry; languages asked for are used as given.
    @Test func languages() {
        let installed = ["eng", "deu", "fra"]
        let byDefault = LanguagePlan(requested: nil, installed: installed, retryBelowConfidence: 75)
        #expect(byDefault.all == installed)
        #expect(byDefault.firstPass == ["eng"])
        #expect(byDefault.retries(Self.words([74])))
        #expect(!byDefault.retries(Self.words([75])))
        let asked = LanguagePlan(requested: ["eng+deu"], installed: installed, retryBelowConfidence: 75)
        #expect(asked.all == ["eng", "deu"])
        #expect(asked.firstPass == ["eng", "deu"])
        #expect(!asked.retries(Self.words([10])))
        let englishOnly = LanguagePlan(requested: nil, installed: ["eng"], retryBelowConfidence: 75)
        #expect(englishOnly.firstPass == ["eng"])
        #expect(englishOnly.retryBelowConfidence == 0)
    }

    /// A retry reads with English and the languages the page shows; every language when it shows none.
    @Test func retryLanguages() {
        let plan = LanguagePlan(requested: nil, installed: ["eng", "deu", "fra"], retryBelowConfidence: 75)
        let german = "Zutaten Zucker Wasser Säuerungsmittel Farbstoff und Süßungsmittel".split(separator: " ")
            .map { RecognizedWord(text: String($0), confidence: 60, left: 0, top: 0, right: 1, bottom: 1, line: 0) }
        #expect(plan.retryLanguages(for: german) == ["eng", "deu"])
        #expect(plan.retryLanguages(for: []) == ["eng", "deu", "fra"])
    }

    /// Time left: the budget from the end of preprocessing, less waits; a nearer deadline wins.
    @Test func timeLeft() {
        let ms: UInt64 = 1_000_000
        var time = TimeLeft(budgetMs: 8_000, from: 1_000 * ms, deadline: nil)
        #expect(time.at(1_000 * ms) == (8_000, false))
        #expect(time.at(4_000 * ms) == (5_000, false))
        time.waitedMs = 2_000
        #expect(time.at(4_000 * ms) == (7_000, false))
        let burst = TimeLeft(budgetMs: 8_000, from: 1_000 * ms, deadline: 3_000 * ms)
        #expect(burst.at(2_000 * ms) == (1_000, true))
        #expect(burst.at(3_500 * ms) == (-500, true))
        let far = TimeLeft(budgetMs: 8_000, from: 1_000 * ms, deadline: 100_000 * ms)
        #expect(far.at(2_000 * ms) == (7_000, false))
    }
}
