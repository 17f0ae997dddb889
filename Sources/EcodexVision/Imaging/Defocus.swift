import Foundation

/// Print out of focus, measured on a gray image by how wide its ink edges are against the print's
/// height, and undone by Wiener deconvolution with a Gaussian of the matching width; print whose
/// edges are as steep as sharp print's is left as it is.
///
/// A Gaussian blur of σ pixels makes a step edge's steepest step its contrast over √(2π)σ, so an
/// edge measured w pixels wide (contrast over the median step across the ink/paper split) gives σ ≈ w/2.5.
enum Defocus {
    /// An edge width measured on print of a given height.
    struct Measure: Equatable, Sendable {
        /// Pixels an ink edge takes to rise (`CaptureMeasure.EdgeSample.edgeWidthAtInk`).
        var edgeWidth: Double
        /// Median height of the characters, pixels.
        var textHeight: Double
        /// The narrower of the widths across and down over the wider: near 1 out of focus, lower
        /// where a shaking hand smeared the print one way (`MotionBlur`'s business, not a Gaussian's).
        var evenness = 1.0
        var share: Double { CaptureMeasure.blurShare(edgeWidth: edgeWidth, printHeight: textHeight) ?? 0 }
    }

    struct Settings: Sendable {
        /// Edges at least this share of the print's height wide are out of focus: Tesseract still reads
        /// print a little softer (the gold set's moderate blur, a soft photo of big print).
        var minShare = 0.2
        /// Beyond this share the strokes have merged: sharpening only changes which letter soup is read
        /// (small print on blurred real frames measured 0.35–0.45).
        var maxShare = 0.35
        /// Edges narrower than this many pixels are sharp whatever the print's size.
        var minEdgeWidth = 4.0
        /// Blur less even than this (narrower over wider width) is a smear, which a Gaussian undoes wrongly:
        /// print out of focus measured 0.77–0.94, real frames smeared one way 0.33–0.67.
        var minEvenness = 0.7
        /// σ of the Gaussian undone, per pixel of edge width: a little under the 0.4 a pure Gaussian
        /// gives, since undoing too little blur costs less than the ringing of undoing too much.
        var sigmaPerEdgeWidth = 0.33
        /// Wiener's noise-to-signal ratio: higher keeps more blur, lower rings more.
        var noiseToSignal: Float = 0.01
    }

    /// Whether a measure says the print is out of focus and worth undoing.
    static func isDefocused(_ m: Measure, settings: Settings = .init()) -> Bool {
        m.textHeight > 0 && m.edgeWidth >= settings.minEdgeWidth
            && m.share >= settings.minShare && m.share <= settings.maxShare && m.evenness >= settings.minEvenness
    }

    /// The σ (pixels) of the Gaussian blur a measure stands for.
    static func sigma(_ m: Measure, settings: Settings = .init()) -> Double {
        m.edgeWidth * settings.sigmaPerEdgeWidth
    }

    /// The edge width of a gray image (`width`×`height` bytes) with print `textHeight` high; nil
    /// when ink and paper differ too little to measure.
    static func measure(_ bytes: [UInt8], width: Int, height: Int, textHeight: Double) -> Measure? {
        guard let edge = CaptureMeasure.EdgeSample(bytes, width: width, height: height)?
            .edgeWidthAtInk(bytes, width: width, height: height, widest: textHeight) else { return nil }
        return Measure(edgeWidth: max(edge.across, edge.down), textHeight: textHeight,
                       evenness: min(edge.across, edge.down) / max(edge.across, edge.down))
    }

    /// The image with a Gaussian blur of `sigma` pixels undone (Wiener, tile by tile).
    static func deblurred(_ bytes: [UInt8], width: Int, height: Int, sigma: Double,
                          settings: Settings = .init()) -> [UInt8] {
        Wiener.deconvolved(bytes, width: width, height: height) {
            gaussianFilter(sigma: sigma, size: $0.size, noiseToSignal: settings.noiseToSignal)
        }
    }

    /// H / (H² + k) for a Gaussian's spectrum H on a `size` tile (H is real and even); 1 at zero frequency.
    static func gaussianFilter(sigma: Double, size n: Int, noiseToSignal: Float) -> (re: [Float], im: [Float]) {
        var re = [Float](repeating: 0, count: n * n)
        let im = re
        let c = -2 * Double.pi * Double.pi * sigma * sigma
        let f2 = (0..<n).map { i -> Double in
            let f = Double(i < n / 2 ? i : i - n) / Double(n)
            return f * f
        }
        for v in 0..<n {
            for u in 0..<n {
                let h = Float(exp(c * (f2[u] + f2[v])))
                re[v * n + u] = v == 0 && u == 0 ? 1 : h / (h * h + noiseToSignal)
            }
        }
        return (re, im)
    }
}
