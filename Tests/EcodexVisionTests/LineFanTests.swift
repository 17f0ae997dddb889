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

    /// Bands 100 rows high, overlapping by half, with these tilts from the top down.
    static func bands(_ angles: [Double]) -> [LineFan.Band] {
        angles.enumerated().map { LineFan.Band(y0: Double($0.offset * 50), y1: Double($0.offset * 50 + 100), angle: $0.element, weight: 3) }
    }

    /// One band of other print (a level address line under a fanned list) does not veto the
    /// fan the other bands agree on; two such bands do, and so does a fan with no outlier to drop.
    @Test func oneBandOffTheFanIsLeftOut() throws {
        let fanned = [-2.5, -3.4, -4.3, -5.1]
        let all = try #require(LineFan.fit(Self.bands(fanned + [0.4])))
        #expect(!LineFan.fitsBands(all), "\(all)")
        let fan = try #require(LineFan.fan(of: Self.bands(fanned + [0.4])))
        #expect(LineFan.fitsBands(fan), "\(fan)")
        #expect(abs(fan.angle(atRow: 50) + 2.5) < 0.3 && abs(fan.angle(atRow: 200) + 5.1) < 0.3, "\(fan)")
        #expect(fan.yHigh == 250, "the left-out band's rows are not the fan's: \(fan)")

        // A heading tilted alone above level lines: the rest is flat, not a fan from the heading down.
        let heading = try #require(LineFan.fan(of: Self.bands([6.9, 0, 0, 0, 0, 0])))
        #expect(heading.spread < 0.5 && heading.yLow == 50, "\(heading)")

        let twoOff = try #require(LineFan.fan(of: Self.bands([-2.5, -3.4, 1.0, -5.1, 0.4])))
        #expect(!LineFan.fitsBands(twoOff), "\(twoOff)")
        // One band off among three leaves none to spare; with a fourth on the line it is left out.
        let threeBands = try #require(LineFan.fan(of: Self.bands([-2.5, 3.0, -2.5])))
        #expect(!LineFan.fitsBands(threeBands), "\(threeBands)")
        let fourBands = try #require(LineFan.fan(of: Self.bands([-2.5, 3.0, -2.5, -2.5])))
        #expect(LineFan.fitsBands(fourBands) && fourBands.spread < 0.5, "\(fourBands)")
    }

    /// The sausage bag photographed bigger (its gold photo at 3×, shrunk back to 24 px print as
    /// the reader shrinks it): its bottom band finds the level address line, and the fan of
    /// the list is still measured and worth levelling.
    @Test func theFannedBagIsMeasuredWhenResampled() throws {
        let bag = try #require(PixImage.read(Fixtures.real("irockel_image-16.jpg")))
        let resampled = try bag.scaled(3).scaled(0.37)
        let gray = try Preprocessor.toGray(resampled, bestChannel: true).0
        let textHeight = try #require(Preprocessor.medianTextHeight(gray, threshold: 128))
        let fan = try #require(LineFan.measure(gray, textHeight: textHeight))
        #expect(LineFan.worthCorrecting(fan, width: gray.width, textHeight: textHeight), "\(fan), text \(textHeight) px")
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
