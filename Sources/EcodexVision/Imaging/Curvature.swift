/// Straightens text lines bent into an arc: a label on a can or a bottle, a curled pouch.
///
/// Tesseract finds lines by their baselines; on a cylinder the lines of a
/// label bow up or down, so one line drifts into the next and words come out
/// cut in half. The correction measures how far each vertical strip of the
/// image is shifted up or down against its neighbour, fits one smooth curve
/// to those shifts, and moves every pixel column back by the curve.
///
/// - The measure is the vertical profile of horizontal gray changes in each
///   strip: letters are full of them, while plain paper, the dark surround
///   of a photo and the paper's own edge have almost none. Two neighbouring
///   strips see the same lines, so the shift that best lines up their
///   profiles is how far the lines moved between them (with sub-pixel
///   interpolation, so small shifts near the middle of an arc add up). Only
///   rows that cross several strokes count, so the slanted edge of a card
///   does not, and strips whose profile does not resemble their neighbour's
///   are left out.
/// - A quadratic `y = a·x² + b·x + c` is fitted to the accumulated shifts,
///   weighted by how much text each strip holds. The correction runs only
///   when the bow (the quadratic part across the text) is clear and large
///   (see `worthCorrecting`); straight text that deskew levelled is left alone.
/// - A column shift turns rotated letters at the ends of an arc into slanted
///   ones, which Tesseract reads much like italics.
///
/// Its effect per image condition: docs/accuracy.md.
enum Curvature {
    /// The fitted bend of the text lines.
    struct Bend {
        /// Vertical shift of each column, in pixels, relative to the middle of the text.
        var shift: [Double]
        /// The bow across the text: how far the middle sits above or below the ends' chord.
        var bow: Double
        /// Root-mean-square distance of the strips from the curve.
        var residual: Double
    }

    /// The bend of the text lines in `gray` (row-major, `width` × `height`), or nil when
    /// there is too little text to measure it. `textHeight` is the typical character height in pixels.
    static func measure(_ gray: [UInt8], width w: Int, height h: Int, textHeight: Double) -> Bend? {
        let th = max(8, Int(textHeight.rounded()))
        let stripWidth = 2 * th
        let strips = w / stripWidth
        guard strips >= 6, h >= 2 * th else { return nil }

        // Profiles: per strip, per row, the sum of clear horizontal gray changes.
        let noise = 10, edgeCrossings = 3
        var profiles = [[Double]](repeating: [Double](repeating: 0, count: h), count: strips)
        gray.withUnsafeBufferPointer { px in
            for s in 0..<strips {
                let x0 = s * stripWidth, x1 = min(w - 1, x0 + stripWidth)
                profiles[s].withUnsafeMutableBufferPointer { p in
                    for y in 0..<h {
                        let row = y * w
                        var count = 0
                        for x in x0..<x1 where abs(Int(px[row + x + 1]) - Int(px[row + x])) > noise { count += 1 }
                        // A row through letters crosses many strokes; the slanted edge of a
                        // card or a shadow crosses a row once or twice and should not count.
                        p[y] = Double(max(0, count - edgeCrossings))
                    }
                }
            }
        }
        let smoothing = max(1, th / 4)
        profiles = profiles.map { boxSmooth($0, radius: smoothing / 2) }
        let mass = profiles.map { $0.reduce(0, +) }
        let nonEmpty = mass.filter { $0 > 0 }.sorted()
        guard !nonEmpty.isEmpty else { return nil }
        let median = nonEmpty[nonEmpty.count / 2]
        let inked = (0..<strips).filter { mass[$0] > 0.15 * median }
        guard inked.count >= 6 else { return nil }
        // Zero-mean profiles, so a strip's overall darkness does not pull the match.
        let centred = profiles.map { p -> [Double] in
            let mean = p.reduce(0, +) / Double(h)
            return p.map { $0 - mean }
        }

        // Chain the strips outwards from the one with the most text. A strip whose profile
        // does not resemble its anchor's (a logo, the edge of the card, noise) is left out.
        var offsets = [Double](repeating: 0, count: strips)
        let start = inked.max { mass[$0] < mass[$1] }!
        var chain = [start]
        for direction in [1, -1] {
            var anchor = start
            var misses = 0
            for j in (direction > 0 ? inked.filter { $0 > start } : inked.filter { $0 < start }.reversed()) {
                let reach = min(th * abs(j - anchor), h / 3)
                let (shift, agreement) = bestShift(centred[anchor], centred[j], reach: reach)
                guard agreement >= minimumAgreement else {
                    // The text ended or blurred past measuring: a strip far beyond that matched
                    // by chance (a hand, the shelf) would bend the whole curve.
                    misses += 1
                    if misses > maximumMisses { break }
                    continue
                }
                misses = 0
                offsets[j] = offsets[anchor] + shift
                chain.append(j)
                anchor = j
            }
        }
        chain.sort()
        let used = chain
        guard used.count >= 6 else { return nil }

        // Weighted least squares for y = a·u² + b·u + c with u = x / w (kept near 1 for conditioning).
        var m = [[Double]](repeating: [Double](repeating: 0, count: 3), count: 3)
        var r = [Double](repeating: 0, count: 3)
        for s in used {
            let u = (Double(s) + 0.5) * Double(stripWidth) / Double(w)
            let basis = [u * u, u, 1]
            let weight = mass[s] / median
            for a in 0..<3 {
                r[a] += weight * basis[a] * offsets[s]
                for b in 0..<3 { m[a][b] += weight * basis[a] * basis[b] }
            }
        }
        guard let coef = solve3(m, r) else { return nil }
        func curve(_ x: Double) -> Double {
            let u = x / Double(w)
            return coef[0] * u * u + coef[1] * u + coef[2]
        }
        var squares = 0.0, weights = 0.0
        for s in used {
            let d = curve((Double(s) + 0.5) * Double(stripWidth)) - offsets[s]
            squares += mass[s] * d * d
            weights += mass[s]
        }
        let first = (Double(used.first!) + 0.5) * Double(stripWidth)
        let last = (Double(used.last!) + 0.5) * Double(stripWidth)
        let halfSpan = (last - first) / 2 / Double(w)
        let middle = (first + last) / 2
        let centre = curve(middle)
        return Bend(shift: (0..<w).map { curve(Double($0)) - centre },
                    bow: abs(coef[0]) * halfSpan * halfSpan,
                    residual: (squares / weights).squareRoot())
    }

    /// Whether a measured bend is worth correcting at this text height: a bow of at
    /// least one text height (less does not make lines run into each other), measured
    /// clearly (the strips stray from the curve by under a fifth of the bow).
    static func worthCorrecting(_ bend: Bend, textHeight: Double) -> Bool {
        bend.bow >= textHeight && bend.residual * 5 <= bend.bow
    }

    /// How far `straighten` moves each column down, in pixels.
    static func columnShifts(_ bend: Bend, width w: Int) -> [Int] {
        let top = Int((bend.shift.max() ?? 0).rounded(.up))
        return (0..<w).map { top - Int(bend.shift[$0].rounded()) }
    }

    /// Moves every column of `gray` up or down by `-bend.shift[x]`, growing the
    /// image so nothing is cut, and fills what is uncovered with `paper`.
    static func straighten(_ gray: [UInt8], width w: Int, height h: Int, bend: Bend,
                           paper: UInt8) -> (bytes: [UInt8], height: Int) {
        let low = bend.shift.min() ?? 0, high = bend.shift.max() ?? 0
        let height = h + Int(high.rounded(.up)) + Int((-low).rounded(.up))
        let shifts = columnShifts(bend, width: w)
        var out = [UInt8](repeating: paper, count: w * height)
        out.withUnsafeMutableBufferPointer { dst in
            gray.withUnsafeBufferPointer { src in
                for x in 0..<w {
                    let dy = shifts[x]
                    for y in 0..<h { dst[(y + dy) * w + x] = src[y * w + x] }
                }
            }
        }
        return (out, height)
    }

    // MARK: - Helpers

    /// How alike two neighbouring strips' profiles must be (correlation at the best shift).
    static let minimumAgreement = 0.5

    /// The chain stops after this many strips in a row that do not resemble the last one chained:
    /// past a blurred stretch, a strip on the hand beside the list can match by chance and bend flat text.
    static let maximumMisses = 3

    /// The shift `d` (sub-pixel) for which `b[y + d]` best matches `a[y]`, within ±`reach`,
    /// and the correlation coefficient there (1: the same profile).
    static func bestShift(_ a: [Double], _ b: [Double], reach: Int) -> (shift: Double, agreement: Double) {
        let n = a.count
        func score(_ d: Int) -> Double {
            var sum = 0.0
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    if d >= 0 {
                        for y in 0..<(n - d) { sum += pa[y] * pb[y + d] }
                    } else {
                        for y in (-d)..<n { sum += pa[y] * pb[y + d] }
                    }
                }
            }
            return sum
        }
        var best = 0, bestScore = -Double.infinity
        var scores: [Int: Double] = [:]
        for d in -reach...reach {
            let s = score(d)
            scores[d] = s
            if s > bestScore { bestScore = s; best = d }
        }
        let energy = (a.reduce(0) { $0 + $1 * $1 } * b.reduce(0) { $0 + $1 * $1 }).squareRoot()
        let agreement = energy > 0 ? bestScore / energy : 0
        // A parabola through the peak and its neighbours places it between pixels.
        guard best > -reach, best < reach, let below = scores[best - 1], let above = scores[best + 1] else {
            return (Double(best), agreement)
        }
        let curvature = below - 2 * bestScore + above
        guard curvature < 0 else { return (Double(best), agreement) }
        return (Double(best) + 0.5 * (below - above) / curvature, agreement)
    }

    static func boxSmooth(_ p: [Double], radius: Int) -> [Double] {
        guard radius > 0 else { return p }
        var prefix = [Double](repeating: 0, count: p.count + 1)
        for (i, v) in p.enumerated() { prefix[i + 1] = prefix[i] + v }
        return (0..<p.count).map { i in
            let lo = max(0, i - radius), hi = min(p.count, i + radius + 1)
            return (prefix[hi] - prefix[lo]) / Double(hi - lo)
        }
    }

    /// Solves a 3×3 linear system by Gaussian elimination with partial pivoting.
    static func solve3(_ m: [[Double]], _ r: [Double]) -> [Double]? {
        var a = m, b = r
        for col in 0..<3 {
            guard let pivot = (col..<3).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12 else {
                return nil
            }
            a.swapAt(col, pivot)
            b.swapAt(col, pivot)
            for row in (col + 1)..<3 {
                let f = a[row][col] / a[col][col]
                for k in col..<3 { a[row][k] -= f * a[col][k] }
                b[row] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: 3)
        for row in stride(from: 2, through: 0, by: -1) {
            var s = b[row]
            for k in (row + 1)..<3 { s -= a[row][k] * x[k] }
            x[row] = s / a[row][row]
        }
        return x
    }
}
