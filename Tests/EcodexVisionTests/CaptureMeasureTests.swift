import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// The capture measures (`CaptureMeasure`) on the rescan-prompt photos, made from one clean label
/// (Fixtures/README.md), and on word boxes laid out by hand.
@Suite struct CaptureMeasureTests {
    static func photo(_ name: String) throws -> PixImage {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/prompts/\(name)").path
        return try #require(PixImage.read(path))
    }

    static let clean: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("goldset/synth/g0101.jpg").path

    /// No words read: the whole photo is measured. The label's print is about 16 px high.
    @Test func eachFaultMovesItsOwnMeasure() throws {
        let cleanPhoto = try #require(PixImage.read(Self.clean))
        let clean = try #require(CaptureMeasure.measure(cleanPhoto, words: [], printHeight: 16))
        let blurredPhoto = try Self.photo("blurred.jpg"), darkPhoto = try Self.photo("dark.jpg"), glarePhoto = try Self.photo("glare.jpg")
        let blurred = try #require(CaptureMeasure.measure(blurredPhoto, words: [], printHeight: 16))
        let dark = try #require(CaptureMeasure.measure(darkPhoto, words: [], printHeight: 16))
        let glare = try #require(CaptureMeasure.measure(glarePhoto, words: [], printHeight: 16))
        #expect(clean.brightness > 150 && clean.glare < 0.02 && (clean.blur ?? 1) < 0.2, "\(clean)")
        #expect((blurred.blur ?? 0) >= RescanAdvice.blurFrom, "\(blurred)")
        #expect(dark.brightness < RescanAdvice.darkBelow, "\(dark)")
        #expect(glare.glare >= RescanAdvice.glareFrom, "\(glare)")
    }

    static func line(_ n: Int, bow: Double, y: Double = 100) -> [OCRWord] {
        (0..<8).map { i in
            let u = Double(i) / 3.5 - 1  // -1...1 across the line
            let top = Int((y - bow * (1 - u * u)).rounded())
            let box = BoundingBox(x: 40 + i * 60, y: top, width: 50, height: 10)
            return OCRWord(text: "word", confidence: 90, box: box, line: n, photoBox: box)
        }
    }

    /// Lines bowed by 12 px with 10 px print bow by 1.2 print heights; straight lines by none.
    @Test func theBowOfTheLinesIsInPrintHeights() throws {
        let bowed = Self.line(0, bow: 12) + Self.line(1, bow: 12, y: 130) + Self.line(2, bow: 12, y: 160)
        let bow = try #require(CaptureMeasure.bow(of: bowed, printHeight: 10))
        #expect(abs(bow - 1.2) < 0.1)
        let straight = try #require(CaptureMeasure.bow(of: Self.line(0, bow: 0), printHeight: 10))
        #expect(straight < 0.05)
        // Too few words on a line: not measured.
        #expect(CaptureMeasure.bow(of: Array(Self.line(0, bow: 12).prefix(3)), printHeight: 10) == nil)
    }
}
