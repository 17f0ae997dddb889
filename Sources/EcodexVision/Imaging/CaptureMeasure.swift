import EcodexCore

/// Measures how a photo was taken (`CaptureQuality`) on the text it shows: the box round the
/// words read (in the photo as decoded) with a margin, or the whole photo when none was read.
///
/// - brightness: mean luminance; glare: the share of pixels blown out, at 250 or more and
///   clearly brighter than the paper (paper already near white shows no glare to measure).
/// - blur: an ink edge blurred over `w` pixels rises by its contrast over about `w` pixels,
///   so `w` ≈ contrast (Otsu's ink and paper means) / the steepest gray steps (the 98th
///   percentile of neighbour differences), then divided by the print's height. Steps across
///   and down are taken apart and the blurrier kept: a shaking hand blurs along one direction.
/// - curve: each long line's word centres fitted to a parabola; its bow over the line's
///   length, in print heights, the median over lines.
///
/// At most about a million pixels are visited (a sampling step on large regions), a few ms.
enum CaptureMeasure {
    /// Margin round the words' box, in print heights: glare that wiped out words lies beside those read.
    static let margin = 3.0
    /// Pixels at or above this gray, and `overPaper` above the paper's, are blown out.
    static let blownOut = 250
    static let overPaper = 10
    static let maxPixels = 1_000_000

    static func measure(_ photo: PixImage, words: [OCRWord], printHeight: Double?) -> CaptureQuality? {
        guard photo.width > 0, photo.height > 0 else { return nil }
        let boxes = words.compactMap(\.photoBox).filter { $0.width > 0 && $0.height > 0 }
        var x0 = 0, y0 = 0, x1 = photo.width, y1 = photo.height
        if !boxes.isEmpty {
            let pad = Int(margin * (printHeight ?? 10))
            x0 = max(0, boxes.map(\.x).min()! - pad)
            y0 = max(0, boxes.map(\.y).min()! - pad)
            x1 = min(photo.width, boxes.map { $0.x + $0.width }.max()! + pad)
            y1 = min(photo.height, boxes.map { $0.y + $0.height }.max()! + pad)
        }
        guard x1 - x0 >= 8, y1 - y0 >= 8,
              let region = try? photo.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
              let gray = try? (region.depth == 8 ? region : region.gray()) else { return nil }
        guard let sample = EdgeSample(gray.grayBytes(), width: gray.width, height: gray.height) else { return nil }
        let stats = GrayStats(histogram: sample.histogram)
        // The paper: the gray under which 40 % of the region lies (ink is a smaller share).
        let glareFrom = max(blownOut, stats.percentile(0.4) + overPaper)
        let blown = glareFrom > 255 ? 0 : sample.histogram[glareFrom...].reduce(0, +)
        var quality = CaptureQuality(brightness: Double(sample.sum) / Double(sample.count),
                                     glare: Double(blown) / Double(sample.count))
        if let printHeight, let width = sample.edgeWidth { quality.blur = blurShare(edgeWidth: width, printHeight: printHeight) }
        if let printHeight, printHeight > 0 { quality.curve = bow(of: words, printHeight: printHeight) }
        return quality
    }

    /// An edge `edgeWidth` pixels wide on print `printHeight` high, as a share of that height (at most 1).
    static func blurShare(edgeWidth: Double, printHeight: Double) -> Double? {
        printHeight > 0 ? min(edgeWidth, printHeight) / printHeight : nil
    }

    /// The gray histogram and the neighbour steps (across and down) of a gray image, whole rows
    /// kept and rows skipped so that at most about `maxPixels` are visited.
    struct EdgeSample {
        var histogram = [Int](repeating: 0, count: 256)
        var across = [Int](repeating: 0, count: 256), down = [Int](repeating: 0, count: 256)
        var sum = 0, count = 0

        init?(_ bytes: [UInt8], width w: Int, height h: Int) {
            guard bytes.count == w * h, w >= 2, h >= 2 else { return nil }
            var histogram = self.histogram, across = self.across, down = self.down
            var sum = 0, count = 0
            Self.forEachSampled(bytes, width: w, height: h) { v, right, below in
                histogram[v] += 1
                sum += v
                count += 1
                across[abs(right - v)] += 1
                down[abs(below - v)] += 1
            }
            guard count > 0 else { return nil }
            (self.histogram, self.across, self.down, self.sum, self.count) = (histogram, across, down, sum, count)
        }

        /// Calls `visit(gray, right neighbour, neighbour below)` for every pixel but the last column's
        /// and row's, on rows sampled so that at most about `maxPixels` are visited.
        @inline(__always)
        static func forEachSampled(_ bytes: [UInt8], width w: Int, height h: Int, _ visit: (Int, Int, Int) -> Void) {
            let rowStep = max(1, (w * h) / maxPixels)
            bytes.withUnsafeBufferPointer { px in
                var y = 0
                while y < h - 1 {
                    let row = y * w
                    for x in 0..<(w - 1) { visit(Int(px[row + x]), Int(px[row + x + 1]), Int(px[row + w + x])) }
                    y += rowStep
                }
            }
        }

        /// How many pixels an ink edge takes to rise (see `CaptureMeasure`), nil when ink and paper
        /// differ too little to tell; steps across and down apart, the blurrier kept.
        var edgeWidth: Double? {
            let otsu = GrayStats(histogram: histogram).otsu
            let contrast = otsu.lightMean - otsu.darkMean
            let steepest = min(GrayStats(histogram: across).percentile(0.98), GrayStats(histogram: down).percentile(0.98))
            return contrast >= 24 && steepest > 0 ? contrast / Double(steepest) : nil
        }

        /// The same edge width, across and down, taken only at the steps between neighbours on either side
        /// of the ink/paper split (their median): blank paper round the print does not dilute it as it
        /// dilutes the 98th percentile, so sharp print with wide margins measures sharp. Steps of edges
        /// wider than `widest` pixels are shading crossing the split, not ink. `bytes` are those sampled.
        func edgeWidthAtInk(_ bytes: [UInt8], width w: Int, height h: Int, widest: Double) -> (across: Double, down: Double)? {
            let otsu = GrayStats(histogram: histogram).otsu
            let contrast = otsu.lightMean - otsu.darkMean
            guard contrast >= 24, widest > 0, bytes.count == w * h, w >= 2, h >= 2 else { return nil }
            let split = otsu.threshold
            let least = Int((contrast / widest).rounded(.up))
            var across = [Int](repeating: 0, count: 256), down = [Int](repeating: 0, count: 256)
            Self.forEachSampled(bytes, width: w, height: h) { v, right, below in
                if (v < split) != (right < split), abs(right - v) >= least { across[abs(right - v)] += 1 }
                if (v < split) != (below < split), abs(below - v) >= least { down[abs(below - v)] += 1 }
            }
            guard let a = Self.median(across), let d = Self.median(down) else { return nil }
            return (contrast / a, contrast / d)
        }

        /// The median of a histogram of steps, interpolated within its bin; nil when too few to trust.
        static func median(_ histogram: [Int]) -> Double? {
            let total = histogram.reduce(0, +)
            guard total >= 64 else { return nil }
            let half = Double(total) / 2
            var seen = 0
            for (v, c) in histogram.enumerated() where c > 0 {
                if Double(seen + c) >= half { return max(0.5, Double(v) - 0.5 + (half - Double(seen)) / Double(c)) }
                seen += c
            }
            return nil
        }
    }

    /// The median bow of the lines of at least four sure words, in print heights; nil with none.
    static func bow(of words: [OCRWord], printHeight: Double) -> Double? {
        var lines: [Int: [(x: Double, y: Double)]] = [:]
        for w in words where w.confidence >= OCRSummary.unsureBelow {
            guard let b = w.photoBox else { continue }
            lines[w.line, default: []].append((Double(b.x) + Double(b.width) / 2, Double(b.y) + Double(b.height) / 2))
        }
        var bows: [Double] = []
        for points in lines.values where points.count >= 4 {
            let xs = points.map(\.x)
            let left = xs.min()!, right = xs.max()!
            let half = (right - left) / 2
            guard half >= 4 * printHeight else { continue }
            let mid = (left + right) / 2
            guard let a = quadratic(points.map { (($0.x - mid) / half, $0.y) }) else { continue }
            bows.append(abs(a) / printHeight)
        }
        guard !bows.isEmpty else { return nil }
        return bows.sorted()[bows.count / 2]
    }

    /// The `a` of the least-squares `y = a·u² + b·u + c` over `points` (u in -1...1), nil when singular.
    static func quadratic(_ points: [(u: Double, y: Double)]) -> Double? {
        var s = [Double](repeating: 0, count: 5), t = [Double](repeating: 0, count: 3)
        for p in points {
            var uk = 1.0
            for k in 0..<5 {
                s[k] += uk
                if k < 3 { t[k] += uk * p.y }
                uk *= p.u
            }
        }
        // Normal equations [s4 s3 s2; s3 s2 s1; s2 s1 s0]·(a b c) = (t2 t1 t0), by Cramer's rule.
        let m = [[s[4], s[3], s[2]], [s[3], s[2], s[1]], [s[2], s[1], s[0]]]
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(m)
        guard abs(d) > 1e-9 else { return nil }
        var ma = m
        for r in 0..<3 { ma[r][0] = [t[2], t[1], t[0]][r] }
        return det(ma) / d
    }
}
