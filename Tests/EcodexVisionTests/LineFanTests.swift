import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Text lines whose tilt changes from top to bottom (`LineFan`), on real labels' pixels.
@Suite struct LineFanTests {
    /// A flat real label, enlarged 3× as the reader enlarges small print, and its text height.
    static func flatLabel() throws -> (PixImage, Double) {
        let label = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg"))).gray().scaled(3)
        return (label, try #require(Preprocessor.medianTextHeight(label, threshold: 128)))
    }

    /// `label` with its lines fanned: tilted `top` degrees at its first row and `bottom` at its last.
    static func fanned(_ label: PixImage, top: Double, bottom: Double) throws -> PixImage {
        let h = Double(label.height)
        let fan = LineFan.Fan(a: top, b: (bottom - top) / h, yLow: 0, yHigh: h, residual: 0)
        let out = LineFan.level(label.grayBytes(), width: label.width, height: label.height, fan: fan, paper: 255)
        return try PixImage.gray(out.bytes, width: label.width, height: out.height)
    }

    /// A label fanned from 3° to −3° is measured as such (the opposite tilts, which level it),
    /// and once levelled with what was measured it measures flat.
    @Test func aFannedLabelIsMeasuredAndLevelled() throws {
        let (label, textHeight) = try Self.flatLabel()
        let fannedLabel = try Self.fanned(label, top: 3, bottom: -3)
        let fan = try #require(LineFan.measure(fannedLabel, textHeight: textHeight))
        #expect(LineFan.worthCorrecting(fan, width: fannedLabel.width, textHeight: textHeight), "\(fan)")
        // The bands measure the rows of print, inside the label's margins: the tilts found run
        // from about −2.4° to 0.3° (the applied ones there: 2.3° to −1.4°).
        let top = fan.angle(atRow: fan.yLow), bottom = fan.angle(atRow: fan.yHigh)
        #expect(top < -1.5 && bottom > -0.5, "measured \(top)° to \(bottom)°")
        #expect(fan.spread > 2, "\(fan)")

        let level = LineFan.level(fannedLabel.grayBytes(), width: fannedLabel.width, height: fannedLabel.height,
                                  fan: fan, paper: 255)
        let levelled = try PixImage.gray(level.bytes, width: fannedLabel.width, height: level.height)
        let again = LineFan.measure(levelled, textHeight: textHeight)
        #expect(again.map { !LineFan.worthCorrecting($0, width: levelled.width, textHeight: textHeight) } ?? true,
                "still fanned: \(again.map { "\($0)" } ?? "-")")
    }

    /// Flat text, and text turned as a whole (deskew's work), are not fans.
    @Test func flatOrEvenlyTiltedTextIsLeftAlone() throws {
        let (label, textHeight) = try Self.flatLabel()
        for (top, bottom) in [(0.0, 0.0), (-4.0, -4.0)] {
            let image = top == 0 ? label : try Self.fanned(label, top: top, bottom: bottom)
            let fan = LineFan.measure(image, textHeight: textHeight)
            #expect(fan.map { !LineFan.worthCorrecting($0, width: image.width, textHeight: textHeight) } ?? true,
                    "\(top)° to \(bottom)°: \(fan.map { "\($0)" } ?? "-")")
        }
    }

    /// Too few lines to cut into three bands: nothing is measured.
    @Test func aFewLinesAreNotMeasured() throws {
        let (label, textHeight) = try Self.flatLabel()
        let strip = try label.cropped(x: 0, y: 0, width: label.width, height: Int(6 * textHeight))
        #expect(LineFan.measure(strip, textHeight: textHeight) == nil)
    }

    /// Through the reader: the sausage bag of gold `irockel_image-16` (tilts from about −1.5° at the
    /// top to −6° at the bottom; before, its lines ran into each other and 7 of its 11 additives
    /// were lost) is levelled, and its lower lines read.
    @Test func theFannedBagReadsItsLowerLines() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        let result = try reader.read(imageAt: Fixtures.real("irockel_image-16.jpg"))
        #expect(result.steps.contains { $0.hasPrefix("level fanned lines") }, "\(result.steps)")
        let text = result.text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in ["potassium lactate", "sodium propionate", "sodium diacetate", "sorbic acid",
                         "paprika extract", "powdered cellulose"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
    }
}
