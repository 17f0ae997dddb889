import Foundation
import Testing
@testable import EcodexVision

/// The bend measured on text lines (`Curvature`), on a real label's pixels.
@Suite struct CurvatureTests {
    /// Flat text, then strips too blurred or busy to resemble it, then a few strips that match it
    /// far lower by chance (real-dev 09773: a hand beside the list). The chain of strips stops in
    /// the busy part, so flat text is not bent to fit the stray strips.
    @Test func strayStripsBeyondUnreadableOnesDoNotBendFlatText() throws {
        // Enlarged 3×, as the reader enlarges small print before measuring.
        let label = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg"))).gray().scaled(3)
        let textHeight = try #require(Preprocessor.medianTextHeight(label, threshold: 128))
        let src = label.grayBytes(), w0 = label.width, h = label.height
        let strip = 2 * max(8, Int(textHeight.rounded()))
        let busy = 8 * strip, stray = 4 * strip, drop = Int(6.5 * textHeight)
        let w = w0 + busy + stray
        var out = [UInt8](repeating: 255, count: w * h)
        // The busy part: the label's own columns with rows shuffled, differently in every strip
        // (ink, but no strip resembles its neighbour). Seeded.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let rowsOfStrip: [[Int]] = (0..<(busy / strip)).map { _ in
            var rows = Array(0..<h)
            for i in stride(from: h - 1, to: 0, by: -1) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                rows.swapAt(i, Int((seed >> 33) % UInt64(i + 1)))
            }
            return rows
        }
        for y in 0..<h {
            for x in 0..<w0 { out[y * w + x] = src[y * w0 + x] }
            // Every other row only: less ink than the text, so the chain starts on the label.
            for x in 0..<busy where y % 2 == 0 {
                out[y * w + w0 + x] = src[rowsOfStrip[x / strip][y] * w0 + (x % w0)]
            }
            // The label's last columns again, `drop` pixels lower (6.5 lines; 09773's stray strips
            // matched 154 px, 6.4 of its enlarged lines, lower: the old chain bent this by 80 px).
            for x in 0..<stray where y >= drop {
                out[y * w + w0 + busy + x] = src[(y - drop) * w0 + (w0 - stray + x)]
            }
        }
        let bend = Curvature.measure(out, width: w, height: h, textHeight: textHeight)
        #expect(bend.map { !Curvature.worthCorrecting($0, textHeight: textHeight) } ?? true,
                "bent flat text: bow \(bend?.bow ?? 0) px, residual \(bend?.residual ?? 0) px")
        // The label alone measures flat too.
        let alone = Curvature.measure(src, width: w0, height: h, textHeight: textHeight)
        #expect(alone.map { !Curvature.worthCorrecting($0, textHeight: textHeight) } ?? true)
    }
}
