import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Print out of focus measured and undone (`Defocus`), on print made in the test and on gold-set renders.
@Suite struct DefocusTests {
    static let width = MotionBlurTests.width, height = MotionBlurTests.height

    /// Sharp print from `MotionBlurTests.print`, blurred by a Gaussian of `sigma` pixels, then given
    /// grain of ±`grain` gray levels drawn from `seed`.
    static func defocused(sigma: Double, seed: UInt64, grain: Int = 3) -> (sharp: [UInt8], blurred: [UInt8]) {
        let sharp = MotionBlurTests.print(seed: seed)
        let radius = Int((3 * sigma).rounded(.up))
        let kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        func pass(_ v: [Double], along dx: Int, _ dy: Int) -> [Double] {
            var out = [Double](repeating: 0, count: v.count)
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0.0
                    for (k, w) in kernel.enumerated() {
                        let xx = min(max(x + (k - radius) * dx, 0), width - 1), yy = min(max(y + (k - radius) * dy, 0), height - 1)
                        sum += w * v[yy * width + xx]
                    }
                    out[y * width + x] = sum / total
                }
            }
            return out
        }
        let smooth = pass(pass(sharp.map(Double.init), along: 1, 0), along: 0, 1)
        var random = SplitMix64(seed: seed &+ 1)
        let blurred = smooth.map { v in UInt8(max(0, min(255, (v + Double(Int(random.next() % UInt64(2 * grain + 1)) - grain)).rounded()))) }
        return (sharp, blurred)
    }

    /// The synthetic print's letters (about 10–16 px), measured as the preprocessor measures them.
    static func textHeight(_ bytes: [UInt8]) throws -> Double {
        let pix = try PixImage.gray(bytes, width: width, height: height)
        let split = GrayStats(bytes).otsu
        return try #require(Preprocessor.medianTextHeight(pix, threshold: split.threshold))
    }

    /// Blurred print measures σ near the truth (the edge width over √(2π)), alike across and down, and
    /// undoing it brings the print closer to the sharp original.
    @Test(arguments: [1.8, 2.2, 2.6])
    func defocusIsMeasuredAndUndone(_ sigma: Double) throws {
        let (sharp, blurred) = Self.defocused(sigma: sigma, seed: 52_300)
        let height = try Self.textHeight(sharp)
        let measure = try #require(Defocus.measure(blurred, width: Self.width, height: Self.height, textHeight: height))
        let estimate = measure.edgeWidth / (2 * Double.pi).squareRoot()
        #expect(abs(estimate - sigma) <= 0.3 * sigma, "σ \(sigma) measured as \(estimate) (\(measure))")
        #expect(measure.evenness > 0.85, "a Gaussian blurs every way alike: \(measure)")

        // Undoing a little less than measured (`sigmaPerEdgeWidth`) keeps some blur rather than ringing.
        let restored = Defocus.deblurred(blurred, width: Self.width, height: Self.height, sigma: Defocus.sigma(measure))
        let before = MotionBlurTests.difference(blurred, sharp), after = MotionBlurTests.difference(restored, sharp)
        #expect(after < 0.9 * before, "difference to the sharp print: \(before) blurred, \(after) restored")
        let again = try #require(Defocus.measure(restored, width: Self.width, height: Self.height, textHeight: height))
        #expect(again.edgeWidth < 0.8 * measure.edgeWidth, "edges \(measure.edgeWidth) px blurred, \(again.edgeWidth) px restored")
    }

    /// The synthetic print (letters about 15 px) blurred by σ 2 px counts as out of focus; sharp, it does not.
    @Test func blurredPrintCountsSharpPrintDoesNot() throws {
        let (sharp, blurred) = Self.defocused(sigma: 2, seed: 52_301)
        let height = try Self.textHeight(sharp)
        let measure = try #require(Defocus.measure(blurred, width: Self.width, height: Self.height, textHeight: height))
        #expect(Defocus.isDefocused(measure), "\(measure) share \(measure.share)")
        let crisp = try #require(Defocus.measure(sharp, width: Self.width, height: Self.height, textHeight: height))
        #expect(!Defocus.isDefocused(crisp), "\(crisp)")
    }

    /// Sharp renders measure sharp, including one with wide blank margins (g0117), where the 98th
    /// percentile of all steps falls among the paper's grain and calls the print 4 px wide.
    @Test(arguments: ["g0022.jpg", "g0101.jpg", "g0117.jpg", "g0514.jpg"])
    func sharpRendersAreLeftAlone(_ name: String) throws {
        let gray = try #require(PixImage.read(Fixtures.packageRoot + "/goldset/synth/" + name)).gray()
        let bytes = gray.grayBytes()
        let sample = try #require(CaptureMeasure.EdgeSample(bytes, width: gray.width, height: gray.height))
        let atInk = try #require(sample.edgeWidthAtInk(bytes, width: gray.width, height: gray.height, widest: 20))
        #expect(max(atInk.across, atInk.down) < Defocus.Settings().minEdgeWidth, "\(name): \(atInk) px (all steps: \(sample.edgeWidth ?? 0) px)")
        let steps = try Preprocessor.run(gray).steps
        #expect(!steps.contains { $0.hasPrefix("undo defocus") }, "\(name): \(steps)")
    }

    /// What counts as out of focus: edges wide in pixels and against the print, short of print merged into blobs.
    @Test(arguments: [
        (Defocus.Measure(edgeWidth: 6.2, textHeight: 24), true),    // σ 2.5 on 24 px print (g0612)
        (Defocus.Measure(edgeWidth: 4.2, textHeight: 18), true),
        (Defocus.Measure(edgeWidth: 3.6, textHeight: 18), false),   // under 4 px: sharp enough to read
        (Defocus.Measure(edgeWidth: 1.8, textHeight: 16), false),   // sharp print
        (Defocus.Measure(edgeWidth: 12, textHeight: 59), true),     // a big photo's soft print (20 %)
        (Defocus.Measure(edgeWidth: 5, textHeight: 60), false),     // wide in pixels, narrow against big print
        (Defocus.Measure(edgeWidth: 8, textHeight: 20), false),     // strokes merged: letter soup either way
        (Defocus.Measure(edgeWidth: 6.6, textHeight: 7), false),    // tiny print merged into blobs
        (Defocus.Measure(edgeWidth: 5, textHeight: 0), false),
        (Defocus.Measure(edgeWidth: 6, textHeight: 24, evenness: 0.8), true),    // out of focus (g0612)
        (Defocus.Measure(edgeWidth: 5.2, textHeight: 17, evenness: 0.44), false), // smeared down (a real frame)
    ])
    func whatCountsAsOutOfFocus(_ measure: Defocus.Measure, _ counts: Bool) {
        #expect(Defocus.isDefocused(measure) == counts, "\(measure) share \(measure.share)")
    }

    /// The Gaussian's Wiener filter leaves the mean gray as it is and lifts fine detail, boundedly.
    @Test func filterKeepsTheMeanAndBoundsTheGain() {
        let filter = Defocus.gaussianFilter(sigma: 2.5, size: 64, noiseToSignal: 0.01)
        #expect(filter.re[0] == 1)
        let gain = filter.re.max() ?? 0
        #expect(gain > 2 && gain <= 1 / (2 * Float(0.01).squareRoot()) + 0.01, "\(gain)")
        #expect(filter.im.allSatisfy { $0 == 0 })
    }

    /// Odd and tiny images are measured and deconvolved without a crash, and keep their size.
    @Test func oddSizesAreSafe() {
        for (w, h) in [(1, 1), (2, 2), (63, 63), (300, 64), (64, 300), (1600, 64), (64, 1600)] {
            let flat = [UInt8](repeating: 200, count: w * h)
            #expect(Defocus.measure(flat, width: w, height: h, textHeight: 10) == nil)
            #expect(Defocus.deblurred(flat, width: w, height: h, sigma: 2).count == w * h)
        }
        #expect(Defocus.measure([1, 2, 3], width: 2, height: 2, textHeight: 10) == nil)
    }

    /// Through the reader: a label out of focus (`g0620`, σ 15 % of the letter height, gold set's
    /// hard tier) reads its codes once sharpened; read as it was, none of five came through.
    @Test func printOutOfFocusReads() throws {
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: Fixtures.packageRoot + "/goldset/synth/g0620.jpg")
        #expect(result.steps.contains { $0.hasPrefix("undo defocus") }, "\(result.steps)")
        let text = result.text.lowercased().filter { !$0.isWhitespace && $0 != "-" }
        let codes = ["e321", "e392", "e452", "e472c", "e475"]
        let read = codes.filter { text.contains($0) }
        #expect(read.count >= 3, "read \(read) of \(codes) in \(result.text)")
    }
}
