import Foundation
internal import CLeptonica

/// Levels text lines whose tilt changes from the top of a label to its bottom.
///
/// A label photographed at a slant, or a pouch that bends away from the camera, shows its lines as
/// a fan: one rotation cannot level them all, and Tesseract then runs one line into the next.
///
/// - The measure: the image is cut into overlapping horizontal bands, three text lines or
///   more each, and Leptonica's skew sweep finds each band's tilt. A straight line
///   `angle(y) = a + b·y` is fitted through the bands that found one surely.
/// - The correction runs only when that line explains the bands well and the tilts differ
///   enough to move a line's ends by half a text height or more (`worthCorrecting`). Then
///   each point is moved up or down by its distance from the middle column times the tilt
///   of its own line: a vertical shear whose slope follows the row. Letters lean a little
///   at the ends, which Tesseract reads like italics, as after `Curvature`.
/// - It runs after deskew and before `Curvature`, which then measures what bow is left.
enum LineFan {
    struct Fan: Equatable {
        /// Tilt in degrees at row `y` of the measured image: `a + b·y`, with `y` held within
        /// `yLow...yHigh` (the rows of the bands that gave a tilt), so no tilt is guessed beyond them.
        var a: Double
        var b: Double
        var yLow: Double
        var yHigh: Double
        /// Largest distance, in degrees, of a band's tilt from the fitted line.
        var residual: Double

        func angle(atRow y: Double) -> Double { a + b * min(max(y, yLow), yHigh) }

        /// How far apart the fitted tilts of the top and bottom rows are, in degrees.
        var spread: Double { abs(b) * (yHigh - yLow) }

        /// How far, in degrees, a band's tilt lies from the fitted line at its middle row.
        func distance(_ band: Band) -> Double { abs(a + b * band.y - band.angle) }
    }

    /// Bands with a sure tilt needed to fit a fan.
    static let minimumBands = 3
    /// Leptonica's confidence a band's tilt needs (its own deskew asks 3 over ±7°).
    static let minimumConfidence: Float = 2.5
    /// Tilts searched around level, degrees.
    static let sweepRange: Float = 12

    /// The fan of the text lines in the gray image `pix` (dark ink on light paper), or nil
    /// when too few bands hold lines to measure one. `textHeight` is the typical character
    /// height in pixels.
    static func measure(_ pix: PixImage, textHeight: Double) -> Fan? {
        let w = pix.width, h = pix.height
        // Each band holds about three lines (a line and its gap are 1.2–1.5 text heights);
        // bands overlap by half, so K bands span the image in K + 1 halves.
        let bandHeight = max(4 * textHeight, 1)
        let count = min(6, Int(2 * Double(h) / bandHeight) - 1)
        guard count >= minimumBands, w >= Int(8 * textHeight) else { return nil }
        guard let binary = Preprocessor.inkMask(pix) else { return nil }
        // Leptonica's own deskew sweeps at a quarter size and searches at half; smaller
        // images are swept at half size or whole, so their lines keep a few pixels of height.
        let reduction: Int32 = w >= 1000 ? 4 : (w >= 500 ? 2 : 1)
        var rows: [Band] = []
        for k in 0..<count {
            let y0 = k * h / (count + 1), y1 = (k + 2) * h / (count + 1)
            guard let band = try? binary.cropped(x: 0, y: y0, width: w, height: y1 - y0) else { continue }
            // An angle at the sweep's edge is no measurement: the band's lines lie beyond it.
            guard let (angle, conf) = Preprocessor.sweep(band, reduction: reduction, range: sweepRange),
                  conf >= minimumConfidence, abs(angle) < sweepRange - 0.5 else { continue }
            rows.append(Band(y0: Double(y0), y1: Double(y1), angle: Double(angle), weight: Double(conf).squareRoot()))
        }
        return fan(of: rows)
    }

    /// The fan through the bands' tilts. One band may hold other print than the label's lines (an
    /// address printed level under a fanned list): when the line through all bands does not fit them
    /// (`fitsBands`), each band is left out in turn and the closest fit of the rest stands, if it fits.
    static func fan(of bands: [Band]) -> Fan? {
        guard let fan = fit(bands) else { return nil }
        guard !fitsBands(fan), bands.count > minimumBands else { return fan }
        let others = bands.indices.compactMap { i -> Fan? in
            var rest = bands
            rest.remove(at: i)
            return fit(rest)
        }
        guard let best = others.min(by: { $0.residual < $1.residual }), fitsBands(best) else { return fan }
        return best
    }

    /// A band's measured tilt: rows `y0..<y1` of the image, weighted by Leptonica's confidence.
    struct Band {
        var y0: Double, y1: Double, angle: Double, weight: Double
        var y: Double { (y0 + y1) / 2 }
    }

    /// The weighted least-squares line `angle = a + b·y` through `bands`, or nil when fewer
    /// than `minimumBands` or all at one row.
    static func fit(_ bands: [Band]) -> Fan? {
        guard bands.count >= minimumBands else { return nil }
        var sw = 0.0, sy = 0.0, sa = 0.0, syy = 0.0, sya = 0.0
        for r in bands {
            sw += r.weight; sy += r.weight * r.y; sa += r.weight * r.angle
            syy += r.weight * r.y * r.y; sya += r.weight * r.y * r.angle
        }
        let det = sw * syy - sy * sy
        guard det > 0 else { return nil }
        let b = (sw * sya - sy * sa) / det
        let a = (sa - b * sy) / sw
        var fan = Fan(a: a, b: b, yLow: bands.map(\.y0).min()!, yHigh: bands.map(\.y1).max()!, residual: 0)
        fan.residual = bands.map { fan.distance($0) }.max() ?? 0
        return fan
    }

    /// Whether every band lies near the fitted line: within a third of the spread, or half a degree.
    static func fitsBands(_ fan: Fan) -> Bool {
        fan.residual <= max(0.5, fan.spread / 3)
    }

    /// Whether a measured fan is worth levelling on an image `width` wide: its tilts differ
    /// by a degree or more (as deskew leaves tilts under a degree alone: resampling costs
    /// sharpness) and enough to move a line's ends by half a text height against the middle
    /// line's, and every band lies near the fitted line (within a third of the spread, or
    /// half a degree).
    static func worthCorrecting(_ fan: Fan, width: Int, textHeight: Double) -> Bool {
        let top = tan(fan.angle(atRow: fan.yLow) * .pi / 180)
        let bottom = tan(fan.angle(atRow: fan.yHigh) * .pi / 180)
        let drift = abs(top - bottom) * Double(width) / 2
        return fan.spread >= minimumSpread && drift >= textHeight / 2 && fitsBands(fan)
    }

    /// Least difference, in degrees, between the top and bottom tilts worth levelling.
    ///
    /// Below it a blurred block's slight fan is noise that levelling spoils; above it real
    /// fanned lists are missed (measured on the gold set and real frames: docs/history.md).
    static let minimumSpread = 1.5

    /// Rows added above and below so that nothing is cut when `level` moves the ends of lines.
    static func padding(_ fan: Fan, width: Int, height: Int) -> Int {
        let steepest = [0.0, fan.yLow, fan.yHigh, Double(height)].map { abs(tan(fan.angle(atRow: $0) * .pi / 180)) }.max()!
        return Int((steepest * Double(width) / 2).rounded(.up)) + 1
    }

    /// `gray` (row-major, `width` × `height`) with each line levelled, grown by `padding` rows
    /// above and below and filled with `paper` where nothing was. Rows are interpolated.
    static func level(_ gray: [UInt8], width w: Int, height h: Int, fan: Fan,
                      paper: UInt8) -> (bytes: [UInt8], height: Int, pad: Int) {
        let pad = padding(fan, width: w, height: h)
        let height = h + 2 * pad
        let centre = Double(w) / 2
        let slopes = (0..<height).map { tan(fan.angle(atRow: Double($0 - pad)) * .pi / 180) }
        var out = [UInt8](repeating: paper, count: w * height)
        out.withUnsafeMutableBufferPointer { dst in
            gray.withUnsafeBufferPointer { src in
                for row in 0..<height {
                    let y = Double(row - pad), slope = slopes[row]
                    let base = row * w
                    for x in 0..<w {
                        let sy = y - slope * (Double(x) - centre)
                        guard sy >= 0, sy <= Double(h - 1) else { continue }
                        let y0 = Int(sy), t = sy - Double(y0)
                        let y1 = min(y0 + 1, h - 1)
                        let v = Double(src[y0 * w + x]) * (1 - t) + Double(src[y1 * w + x]) * t
                        dst[base + x] = UInt8(v.rounded())
                    }
                }
            }
        }
        return (out, height, pad)
    }
}
