import Testing
@testable import EcodexCore

/// Frames of one burst fused at the word level: a frame whose parse missed an additive still
/// supports it when it read the same words at the same place, the label shifted a little.
@Suite struct BurstAlignmentTests {
    /// One frame's words: each `(text, x, y)` a word 60×20 px at that photo position, on line `y`.
    static func words(_ placed: [(String, Int, Int)], confidence: Double = 90) -> [OCRWord] {
        placed.map { text, x, y in
            OCRWord(text: text, confidence: confidence, box: BoundingBox(x: x, y: y, width: 60, height: 20),
                    line: y, photoBox: BoundingBox(x: x, y: y, width: 60, height: 20))
        }
    }

    /// The mention of `code` on word `index` of `words`, as the parser would give it.
    static func mention(_ code: String, on index: Int, of words: [OCRWord], confidence: Double) -> Mention {
        Mention(code: ECode(code)!, matchedText: [words[index].text], span: OCRResult.byteRanges(words)[index],
                kind: .name, confidence: confidence)
    }

    /// A label's words as the first frame read them.
    static let label: [(String, Int, Int)] = [
        ("Zutaten:", 100, 100), ("Zucker,", 200, 100), ("Emulgator:", 300, 100),
        ("Lecithine,", 100, 140), ("Salz,", 200, 140), ("Aroma.", 300, 140),
    ]

    /// The same label moved by (dx, dy), `replacing` some words' text (index → text).
    static func shifted(_ dx: Int, _ dy: Int, replacing: [Int: String] = [:]) -> [(String, Int, Int)] {
        label.enumerated().map { i, w in (replacing[i] ?? w.0, w.1 + dx, w.2 + dy) }
    }

    @Test func theShiftIsTheMedianOfWordsReadAlike() throws {
        let a = Self.words(Self.label), b = Self.words(Self.shifted(37, -22))
        let shift = try #require(FrameAlignment.between(a, b))
        #expect(shift == FrameAlignment(dx: 37, dy: -22))
    }

    @Test(arguments: [
        // Fewer than two words read alike in both frames: no shift.
        ([("Zucker,", 10, 10), ("Salz", 90, 10)], [("Zucker,", 50, 50), ("Pfeffer", 90, 50)]),
        // Two words read alike that disagree on the shift by far: chance matches, no shift.
        ([("Zucker,", 10, 10), ("Salz,", 90, 10)], [("Zucker,", 500, 10), ("Salz,", 90, 400)]),
    ])
    func noShiftWithoutAgreeingAnchors(_ a: [(String, Int, Int)], _ b: [(String, Int, Int)]) {
        #expect(FrameAlignment.between(Self.words(a), Self.words(b)) == nil)
    }

    /// Frame 0 (the lead) reads the label; its parse missed the weak name (say its class word
    /// was unsure). Frame 1 found E322 weakly on the same word, shifted: the two support each other.
    @Test func wordsAlignedAcrossAShiftSupportEachOther() {
        let lead = Self.words(Self.label), other = Self.words(Self.shifted(40, 25))
        let weak = Self.mention("E322", on: 3, of: other, confidence: 0.5)
        let fused = BurstFusion.fuse([ParseResult(), ParseResult(mentions: [weak])], words: [lead, other], lead: 0)
        #expect(fused.mentions.map(\.code.description) == ["E322"])
        // Without the words the weak reading is seen once, and dropped.
        #expect(BurstFusion.fuse([ParseResult(), ParseResult(mentions: [weak])], lead: 0).mentions.isEmpty)
    }

    /// Table: a weak reading seen once counts only when another frame read the same word at the
    /// same place after the shift.
    @Test(arguments: [
        // The same word, shifted as the rest: supported.
        (shifted(40, 25), true),
        // The lead read another word there (a slip once, in the weak frame): dropped.
        (shifted(40, 25, replacing: [3: "Lactose,"]), false),
        // The same word, but two lines away from where the shift puts it: not the same place.
        (shifted(40, 25).map { $0.0 == "Lecithine," ? ($0.0, $0.1, $0.2 + 80) : $0 }, false),
    ] as [([(String, Int, Int)], Bool)])
    func aWeakReadingNeedsTheSameWordAtTheSamePlace(_ leadWords: [(String, Int, Int)], _ counts: Bool) {
        let other = Self.words(Self.label)
        let weak = Self.mention("E322", on: 3, of: other, confidence: 0.5)
        let fused = BurstFusion.fuse([ParseResult(), ParseResult(mentions: [weak])],
                                     words: [Self.words(leadWords), other], lead: 0)
        #expect(fused.mentions.isEmpty == !counts, "\(leadWords)")
    }

    /// A code read surely in one frame counts without support; a weak slip seen once does not,
    /// even beside frames that read the label's other words alike.
    @Test func aSureReadingCountsAndAWeakSlipDoesNot() {
        let a = Self.words(Self.label), b = Self.words(Self.shifted(5, 5))
        // Frame c misread `Salz,` as a thickener's name; the others read `Salz,` there.
        let c = Self.words(Self.shifted(-8, 3, replacing: [4: "Carrageen,"]))
        let sure = Self.mention("E330", on: 5, of: b, confidence: 0.9)
        let slip = Self.mention("E407a", on: 4, of: c, confidence: 0.5)
        let fused = BurstFusion.fuse([ParseResult(), ParseResult(mentions: [sure]), ParseResult(mentions: [slip])],
                                     words: [a, b, c], lead: 0)
        #expect(fused.mentions.map(\.code.description) == ["E330"])
    }

    /// Words that do not line up with their frames' text (a caller's mistake) give no support, never a crash.
    @Test func mismatchedWordListsGiveNoSupport() {
        let weak = Self.mention("E322", on: 3, of: Self.words(Self.label), confidence: 0.5)
        let fused = BurstFusion.fuse([ParseResult(), ParseResult(mentions: [weak])], words: [Self.words(Self.label)], lead: 0)
        #expect(fused.mentions.isEmpty)
    }
}
