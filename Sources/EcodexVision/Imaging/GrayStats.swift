/// Histogram statistics of an 8-bit gray image, used to decide which
/// preprocessing steps are worth running.
struct GrayStats {
    /// Pixel counts per gray level.
    var histogram: [Int]
    var total: Int

    init(_ bytes: [UInt8], step: Int = 1) {
        var h = [Int](repeating: 0, count: 256)
        var i = 0
        while i < bytes.count { h[Int(bytes[i])] += 1; i += step }
        histogram = h
        total = h.reduce(0, +)
    }

    init(histogram: [Int]) {
        self.histogram = histogram
        total = histogram.reduce(0, +)
    }

    /// Otsu's split: the threshold that best separates two classes, the
    /// between-class standard deviation (how far apart ink and paper are),
    /// and each class's mean and share of pixels.
    struct Split {
        var threshold: Int
        var separation: Double
        var darkMean: Double, lightMean: Double
        var darkFraction: Double
    }

    var otsu: Split {
        guard total > 0 else { return Split(threshold: 128, separation: 0, darkMean: 0, lightMean: 0, darkFraction: 0) }
        let n = Double(total)
        var sumAll = 0.0
        for (v, c) in histogram.enumerated() { sumAll += Double(v * c) }
        var best = Split(threshold: 128, separation: -1, darkMean: 0, lightMean: 0, darkFraction: 0)
        var wDark = 0.0, sumDark = 0.0
        for t in 0..<255 {
            wDark += Double(histogram[t])
            sumDark += Double(t * histogram[t])
            let wLight = n - wDark
            guard wDark > 0, wLight > 0 else { continue }
            let mDark = sumDark / wDark, mLight = (sumAll - sumDark) / wLight
            let between = (wDark / n) * (wLight / n) * (mLight - mDark) * (mLight - mDark)
            if between > best.separation {
                best = Split(threshold: t + 1, separation: between, darkMean: mDark, lightMean: mLight,
                             darkFraction: wDark / n)
            }
        }
        best.separation = best.separation.squareRoot()
        return best
    }

    /// The gray level below which `fraction` of the pixels lie.
    func percentile(_ fraction: Double) -> Int {
        let target = Int(Double(total) * fraction)
        var seen = 0
        for (v, c) in histogram.enumerated() {
            seen += c
            if seen > target { return v }
        }
        return 255
    }
}
