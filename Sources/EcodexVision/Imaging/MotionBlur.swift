import Foundation

/// A straight motion streak (the camera moved while the shutter was open), measured on a gray
/// photo and undone by Wiener deconvolution; a photo that measures no streak is left as it is.
///
/// A streak of L pixels puts zeros into the photo's spectrum every 1/L along its direction, which
/// shows as a deep dip L pixels from the centre of the cepstrum (the spectrum of the log spectrum).
/// Print has dips of its own (stroke width, letter spacing), so a streak must also make the
/// print's edges echo: the gradient along it correlates negatively one streak length apart.
enum MotionBlur {
    /// A streak as measured: from one end to the other (`dx`, `dy` pixels), how deep its cepstral
    /// dip is (standard deviations below the ring around it) and how strongly edges echo along it
    /// (0, not measured, when the dip is too short or shallow to be a streak).
    struct Streak: Equatable, Sendable {
        var dx: Int, dy: Int
        var depth: Double
        var echo: Double

        var length: Double { Double(dx * dx + dy * dy).squareRoot() }
        /// Direction in degrees, 0 ..< 180 (0: horizontal, 90: vertical).
        var degrees: Double {
            let a = atan2(Double(dy), Double(dx)) * 180 / .pi
            return a < 0 ? a + 180 : (a >= 180 ? a - 180 : a)
        }
    }

    struct Settings: Sendable {
        /// Side of the tiles whose log spectra are averaged; at most `maxTiles` of them, the busiest.
        var tile = 128
        var maxTiles = 24
        /// A photo smaller than this many tiles is not measured: over so few, print makes dips as
        /// deep as a streak's by chance (small labels and cut blocks read as they are).
        var minTiles = 6
        /// Dips closer than this are the print's own strokes and spacing, not a streak.
        var shortest = 7.0
        /// The longest streak looked for, pixels (longer ones leave nothing to recover).
        var longest = 40.0
        /// A streak's dip is at least this deep, and its depth times the edge echo at least
        /// `minScore`: sharp print's own dips are shallow, or deep where edges do not echo. Print
        /// out of focus echoes at its letter pitch too, but its dip stays shallower.
        var minDepth = 5.3
        var minScore = 1.1
        /// On a heavy JPEG's block grid (`onJPEGGrid`) or straight down (`downTheLines`) a streak must
        /// score at least this: the grid's own dips score up to about 1.5, the lines' pitch of clean
        /// capitals 1.15, a streak along a row or column of 8 px about 2.6.
        var minGridScore = 2.0
        /// Wiener's noise-to-signal ratio: higher keeps more blur, lower rings more.
        var noiseToSignal: Float = 0.02
    }

    /// Whether a measured streak is worth undoing.
    static func isStreak(_ s: Streak, settings: Settings = .init()) -> Bool {
        s.length >= settings.shortest && s.length <= settings.longest
            && s.depth >= settings.minDepth && s.depth * s.echo >= settings.minScore
            && (!(onJPEGGrid(s) || downTheLines(s)) || s.depth * s.echo >= settings.minGridScore)
    }

    /// A dip straight down may be the pitch of the text's lines rather than a streak: stacked lines
    /// of print (capitals above all) echo one line apart as a streak's edges do.
    static func downTheLines(_ s: Streak) -> Bool {
        s.dx == 0
    }

    /// A dip straight along a row or column at a multiple of 8 pixels may be the 8×8 block grid of a
    /// heavily compressed JPEG rather than a streak: undoing that spoils the print.
    static func onJPEGGrid(_ s: Streak) -> Bool {
        (s.dx == 0 || s.dy == 0) && (s.dx + s.dy) % 8 == 0
    }

    /// The deepest streak-like dip of a gray image (`width`×`height` bytes), whatever its score;
    /// nil when the image is too small to measure.
    static func measure(_ bytes: [UInt8], width: Int, height: Int, settings: Settings = .init()) -> Streak? {
        let n = settings.tile
        guard bytes.count == width * height, width >= n / 2, height >= n / 2,
              width * height >= settings.minTiles * n * n else { return nil }
        let cepstrum = meanLogSpectrum(bytes, width: width, height: height, settings: settings)
        let fft = FFT(size: n)
        var re = cepstrum, im = [Float](repeating: 0, count: n * n)
        fft.transform2D(&re, &im, inverse: true)

        // The cepstrum is symmetric: half the ring is searched, 4 px out to the longest streak. The
        // ring's spread counts the print's own stroke dips (4 px on), but a streak is looked for only
        // from `shortest` on: a stroke dip deeper than the streak's must not hide it.
        let reach = min(Int(settings.longest), n / 2 - 1)
        let shortest2 = Int((settings.shortest * settings.shortest).rounded(.up))
        var best = (value: Float.infinity, dx: 0, dy: 0)
        var sum = 0.0, sumSquares = 0.0, count = 0.0
        for dy in -reach...reach {
            for dx in 0...reach where dx > 0 || dy > 0 {
                let r2 = dx * dx + dy * dy
                guard r2 >= 16, r2 <= reach * reach else { continue }
                let v = re[((dy + n) % n) * n + dx]
                sum += Double(v); sumSquares += Double(v * v); count += 1
                if r2 >= shortest2, v < best.value { best = (v, dx, dy) }
            }
        }
        let mean = sum / count, spread = (sumSquares / count - mean * mean).squareRoot()
        guard spread > 0 else { return nil }
        var streak = Streak(dx: best.dx, dy: best.dy, depth: (mean - Double(best.value)) / spread, echo: 0)
        // The echo costs a pass over the photo: only a dip that could be a streak needs it.
        if streak.length >= settings.shortest, streak.depth >= settings.minDepth {
            streak.echo = -edgeEcho(bytes, width: width, height: height, dx: best.dx, dy: best.dy)
        }
        return streak
    }

    /// The mean log magnitude spectrum of the busiest tiles (Hann-windowed, mean removed).
    private static func meanLogSpectrum(_ bytes: [UInt8], width: Int, height: Int, settings: Settings) -> [Float] {
        let n = settings.tile
        let xs = Array(stride(from: 0, through: max(0, width - n), by: n / 2))
        let ys = Array(stride(from: 0, through: max(0, height - n), by: n / 2))
        // Busiest first: the variance of a sparse sample of each tile.
        var tiles: [(x: Int, y: Int, busy: Double)] = []
        for y in ys {
            for x in xs {
                var s = 0.0, s2 = 0.0, c = 0.0
                for j in stride(from: 0, to: n, by: 4) {
                    for i in stride(from: 0, to: n, by: 4) {
                        let v = Double(bytes[reflect(y + j, height) * width + reflect(x + i, width)])
                        s += v; s2 += v * v; c += 1
                    }
                }
                tiles.append((x, y, s2 / c - (s / c) * (s / c)))
            }
        }
        tiles.sort { $0.busy > $1.busy }
        let window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n - 1))) }
        let fft = FFT(size: n)
        var sum = [Float](repeating: 0, count: n * n)
        var re = sum, im = sum
        let chosen = tiles.prefix(settings.maxTiles)
        for t in chosen {
            var mean: Float = 0
            for j in 0..<n {
                let row = reflect(t.y + j, height) * width
                for i in 0..<n {
                    let v = Float(bytes[row + reflect(t.x + i, width)])
                    re[j * n + i] = v; mean += v
                }
            }
            mean /= Float(n * n)
            for j in 0..<n { for i in 0..<n { re[j * n + i] = (re[j * n + i] - mean) * window[j] * window[i] } }
            for k in 0..<(n * n) { im[k] = 0 }
            fft.transform2D(&re, &im, inverse: false)
            for k in 0..<(n * n) { sum[k] += log((re[k] * re[k] + im[k] * im[k]).squareRoot() + 1e-3) }
        }
        let scale = 1 / Float(max(1, chosen.count))
        return sum.map { $0 * scale }
    }

    /// Correlation of the gradient along (`dx`, `dy`) with itself one streak apart, over its energy:
    /// about -0.5 for a pure streak (every edge comes back reversed), near 0 for sharp print.
    static func edgeEcho(_ bytes: [UInt8], width: Int, height: Int, dx: Int, dy: Int) -> Double {
        let length = Double(dx * dx + dy * dy).squareRoot()
        guard length > 0, width > 2 + abs(dx), height > 2 + abs(dy) else { return 0 }
        let ux = Float(Double(dx) / length), uy = Float(Double(dy) / length)
        var d = [Float](repeating: 0, count: width * height)
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let i = y * width + x
                let gx = (Float(bytes[i + 1]) - Float(bytes[i - 1])) / 2
                let gy = (Float(bytes[i + width]) - Float(bytes[i - width])) / 2
                d[i] = gx * ux + gy * uy
            }
        }
        var cross = 0.0, energy = 0.0
        for y in 1..<(height - 1) {
            var rowEnergy: Float = 0, rowCross: Float = 0
            let y2 = y + dy
            for x in 1..<(width - 1) {
                let v = d[y * width + x]
                rowEnergy += v * v
                let x2 = x + dx
                if y2 >= 0, y2 < height, x2 >= 0, x2 < width { rowCross += v * d[y2 * width + x2] }
            }
            energy += Double(rowEnergy); cross += Double(rowCross)
        }
        return energy > 0 ? cross / energy : 0
    }

    /// The image with `streak` undone: Wiener deconvolution by a line of the streak's length and
    /// direction centred on each pixel (so nothing moves), tile by tile.
    static func deblurred(_ bytes: [UInt8], width: Int, height: Int, streak: Streak,
                          settings: Settings = .init()) -> [UInt8] {
        Wiener.deconvolved(bytes, width: width, height: height) {
            wienerFilter(streak, fft: $0, noiseToSignal: settings.noiseToSignal)
        }
    }

    /// conj(H) / (|H|² + k) for the streak's line spread H on an `fft.size` tile; 1 at zero frequency.
    private static func wienerFilter(_ streak: Streak, fft: FFT, noiseToSignal: Float) -> (re: [Float], im: [Float]) {
        let n = fft.size
        var re = [Float](repeating: 0, count: n * n), im = re
        // The line from -d/2 to +d/2, drawn with four samples a pixel, each split over its four neighbours.
        let samples = max(2, Int((streak.length * 4).rounded(.up)) + 1)
        for s in 0..<samples {
            let t = Double(s) / Double(samples - 1) - 0.5
            let x = t * Double(streak.dx), y = t * Double(streak.dy)
            let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
            let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
            for (ox, oy, w) in [(0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)] {
                re[(((y0 + oy) % n + n) % n) * n + ((x0 + ox) % n + n) % n] += w / Float(samples)
            }
        }
        fft.transform2D(&re, &im, inverse: false)
        for k in 0..<(n * n) {
            let power = re[k] * re[k] + im[k] * im[k]
            let denominator = power + (k == 0 ? 0 : noiseToSignal)
            (re[k], im[k]) = denominator > 0 ? (re[k] / denominator, -im[k] / denominator) : (1, 0)
        }
        return (re, im)
    }

    /// `i` mirrored into 0 ..< `count` (the edge pixel not repeated), so tiles reach past the edge.
    static func reflect(_ i: Int, _ count: Int) -> Int {
        guard count > 1 else { return 0 }
        var i = i
        while i < 0 || i >= count { i = i < 0 ? -i : 2 * (count - 1) - i }
        return i
    }
}
