import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Print washed out in a patch by glare (`Preprocessor.fadedInkTile`), on gold-set renders.
@Suite struct FadedInkTests {
    static func synth(_ name: String) -> String { Fixtures.packageRoot + "/goldset/synth/" + name }

    /// The measure on the gray photo as preprocessing sees it: enlarged or shrunk to 24 px print
    /// when that is a change of a third or more.
    static func fadedTile(_ name: String) throws -> Int? {
        var gray = try #require(PixImage.read(synth(name))).gray()
        var height = try #require(Preprocessor.medianTextHeight(gray, threshold: 128))
        let s = 24 / height
        if s >= 1.3 || s <= 0.75 {
            gray = try gray.scaled(s)
            height *= s
        }
        return Preprocessor.fadedInkTile(gray, textHeight: height)
    }

    /// A glare across two lines (`g0061`, `g0385`) is found; clean print (`g0001`) and curved,
    /// shaded cans (`g0184`, `g0137`: the first version of the measure restored both, and they
    /// lost additives) are not. (At these scales the cans are kept out by the contrast and
    /// neighbour rules already; `glarePaper` is measured on the gold batch, not here.)
    @Test(arguments: [("g0061.jpg", true), ("g0385.jpg", true), ("g0001.jpg", false), ("g0184.jpg", false),
                      ("g0137.jpg", false)])
    func glareIsToldFromShadeAndCleanPrint(_ name: String, _ faded: Bool) throws {
        #expect(try (Self.fadedTile(name) != nil) == faded, "\(name)")
    }

    /// Through the reader: the names under `g0061`'s glare read, and the report says why.
    @Test func printUnderAGlareReads() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        let result = try reader.read(imageAt: Self.synth("g0061.jpg"))
        #expect(result.steps.contains("restore faded print"), "\(result.steps)")
        let text = result.text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in ["acide malique", "gomme arabique", "amidon de riz"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
    }
}
