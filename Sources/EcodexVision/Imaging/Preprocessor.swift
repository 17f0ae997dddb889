import Foundation
internal import CLeptonica

/// Which preprocessing steps may run; each still runs only when its measurement says it helps.
///
/// Every field defaults to on; tests and the gold-set evaluation switch steps
/// off to measure what each one is worth.
struct PreprocessOptions: Sendable {
    /// On a whole scene (a package in a hand), read only the blocks of text (`TextRegions`).
    var findTextBlocks = true
    /// Read those blocks with Tesseract's Latin-script model when it is installed.
    var latinForScenes = true
    /// Pick the colour channel with the most ink/paper contrast instead of plain luminance.
    var bestChannel = true
    /// Rescale so characters are about `targetTextHeight` pixels tall.
    var rescale = true
    /// Median connected-component height we aim for (roughly cap height).
    var targetTextHeight = 24.0
    /// Flip light-on-dark text to dark-on-light.
    var invert = true
    /// Flatten uneven lighting and glare.
    var normalizeBackground = true
    /// Background unevenness (gray levels between brightest and darkest tile) that triggers normalisation.
    var unevenLightingThreshold = 40
    /// Find and undo rotation up to ±45°.
    var deskew = true
    /// Turn sideways or upside-down text upright.
    var orient = true
    /// Level text lines whose tilt changes from top to bottom (a label seen at a slant).
    var levelFans = true
    /// Stretch the contrast tile by tile where print is washed out in patches (glare over ink).
    var restoreFadedInk = true
    /// Straighten text lines bent into an arc (labels on cans and bottles).
    var straightenCurves = true
    /// Undo a straight motion streak when one is measured (`MotionBlur`).
    var deblurMotion = true
    /// Undo print out of focus when its edges measure wide against its height (`Defocus`).
    var deblurDefocus = true
    /// Smooth sensor grain out of dark, noisy photos.
    var denoise = true
    /// Grain (mean change a 3×3 median makes) relative to ink/paper contrast above which we smooth.
    var grainThreshold = 0.6
    /// Largest image (pixels) handed to Tesseract; bounds time and memory on big photos.
    var maxWorkPixels = 6_000_000
    /// Bigger photos are shrunk to this size before any measurement.
    var measurePixels = 4_000_000
}

/// The image Tesseract should see and the steps that produced it.
struct PreprocessedImage {
    var image: PixImage
    var steps: [String]
    /// Where the image's pixels came from in the image given to `Preprocessor.run`.
    var map = PhotoMap()
    /// Leptonica's up/down test leaned to upside down, too weakly to turn the image
    /// (`minUpsideDownConfidence`): the reader may read it turned too and keep the surer reading.
    var maybeUpsideDown = false
    /// Quarter turns (clockwise) the orientation tests applied; the reader may check a quarter turn (`QuarterTurnCheck`).
    var quarterTurns = 0
    /// Median height of the characters in the image given to `Preprocessor.run`, pixels (nil
    /// when too few were found): the print's size in the photo, before any enlarging.
    var textHeight: Double?
}

/// Turns a decoded photo into a clean gray image for Tesseract.
///
/// The order matters: polarity is decided first because every later
/// measurement assumes dark ink on light paper; size comes next so the
/// orientation test, background tiles and skew search work at a known text
/// scale; quarter turns come before the ±45° skew search, which cannot see
/// vertical lines; skew is measured last, on the final image, so the rotation
/// we apply is the one we measured.
/// Nothing is binarized for Tesseract: its own adaptive thresholding does
/// better than a global one on blurred and low-contrast photos.
///
/// Later steps: smoothing grain (first, on the gray image), levelling fanned lines (after deskew,
/// `LineFan`), straightening curved lines (`Curvature`) and restoring print washed out by glare last.
enum Preprocessor {
    /// Runs the steps in order and lists those that ran.
    static func run(_ input: PixImage, options: PreprocessOptions = .init()) throws -> PreprocessedImage {
        var steps: [String] = []
        var map = PhotoMap()
        var pix = input

        // A photo bigger than we will ever need is shrunk before anything else,
        // so the measurements below stay cheap: at 4 MP the text of any label
        // photo is still far taller than Tesseract needs.
        if pix.pixelCount > options.measurePixels {
            let s = (Double(options.measurePixels) / Double(pix.pixelCount)).squareRoot()
            pix = try pix.map("pixScale") { pixScale($0, Float(s), Float(s)) }
            map.append(.scale(Double(pix.width) / Double(input.width)))
            steps.append(String(format: "downscale x%.2f", s))
        }

        let (gray, grayStep) = try toGray(pix, bestChannel: options.bestChannel)
        pix = gray
        steps.append(grayStep)

        // Before the grain step: a median or smoothing would blur the streak out of shape.
        // Not sharpened for defocus after either: a streak is undone already, and grain would be amplified.
        var streakOrGrain = false
        if options.deblurMotion, let (sharp, step) = try deblurred(pix) {
            pix = sharp
            steps.append(step)
            streakOrGrain = true
        }

        if options.denoise, let (clean, ratio) = try denoised(pix, threshold: options.grainThreshold) {
            pix = clean
            // Heavy grain survives one median pass. A second median left the print as broken
            // strokes among specks (and the specks set the measured text height, 4 px for 16 px
            // letters); heavy grain is averaged out instead (`smoothedGrain`).
            let heavy = try denoised(pix, threshold: options.grainThreshold / 2) != nil
            if heavy { pix = try smoothedGrain(gray) }
            steps.append(String(format: "denoise (grain %.2f of contrast, %@)", ratio, heavy ? "smoothed" : "median"))
            streakOrGrain = true
        }

        var stats = GrayStats(pix.grayBytes(), step: max(1, pix.pixelCount / 250_000))
        var split = stats.otsu
        if options.invert, isLightOnDark(pix, split: split) {
            pix = try pix.map("pixInvert") { pixInvert(nil, $0) }
            steps.append("invert")
            stats = GrayStats(histogram: stats.histogram.reversed())
            split = stats.otsu
        }

        var textHeight = medianTextHeight(pix, threshold: split.threshold)
        // At the photo's own scale, before resampling spreads the blur.
        if options.deblurDefocus, !streakOrGrain, let height = textHeight,
           let (sharp, step) = try refocused(pix, textHeight: height) {
            pix = sharp
            steps.append(step)
        }
        let sourceTextHeight = textHeight.map { $0 * Double(input.width) / Double(pix.width) }
        if options.rescale, let height = textHeight {
            var s = options.targetTextHeight / height
            let cap = (Double(options.maxWorkPixels) / Double(pix.pixelCount)).squareRoot()
            s = min(s, cap, 4)
            // Small corrections are not worth the blur of resampling.
            if s >= 1.3 || s <= 0.75 {
                let before = pix.width
                pix = try pix.map("pixScale") { pixScale($0, Float(s), Float(s)) }
                map.append(.scale(Double(pix.width) / Double(before)))
                steps.append(String(format: s > 1 ? "upscale x%.2f" : "downscale x%.2f", s))
                textHeight = height * s
            }
        }

        var turns = 0
        func turn(_ quarterTurns: Int) throws {
            map.append(.quarterTurns(quarterTurns, width: pix.width, height: pix.height))
            pix = try pix.turned(quarterTurns)
            steps.append("rotate \(quarterTurns * 90)°")
            turns += quarterTurns
        }
        var maybeUpsideDown = false
        // One ink mask serves both orientation tests.
        let inkForOrientation = options.orient ? PixImage(pixThresholdToBinary(pix.pointer, Int32(split.threshold))) : nil
        if let ink = inkForOrientation, let quarterTurns = try orientation(binary: ink, weakHalfTurn: &maybeUpsideDown) {
            // Leptonica's up/down test is unreliable on lines tilted much (a white label at a slant on a dark
            // table), so when it asks for a turn on tilted lines it is asked again on a straightened copy.
            if let angle = try skewAngle(pix), abs(angle) >= Self.recheckOrientationAbove {
                let straight = try rotate(pix, degrees: angle)
                if let again = try orientation(straight, threshold: split.threshold) { try turn(again) }
            } else {
                try turn(quarterTurns)
            }
        } else if let ink = inkForOrientation, let sideways = try sidewaysTurn(binary: ink) {
            try turn(sideways.quarterTurns)
            // Which way up is less sure than that the lines run up the image: an unsure reading
            // is tried turned round too (`maybeUpsideDown`).
            maybeUpsideDown = maybeUpsideDown || !sideways.sure
        }

        if options.normalizeBackground, backgroundSpread(pix) > options.unevenLightingThreshold {
            // Estimates the paper brightness tile by tile and divides it out, so a
            // shadow or a glare patch no longer looks like ink to Tesseract's threshold.
            pix = try pix.map("pixBackgroundNormSimple") { pixBackgroundNormSimple($0, nil, nil) }
            steps.append("normalize background")
        }
        // Decided here, on the image before any geometry; done last, because stretching before the curve
        // measure spoils that measure on curved labels.
        let fadedTile = options.restoreFadedInk ? fadedInkTile(pix, textHeight: textHeight) : nil

        if options.deskew, let angle = try skewAngle(pix) {
            let from = (pix.width, pix.height)
            pix = try rotate(pix, degrees: angle)
            map.append(.rotate(radians: angle * .pi / 180, from: from, to: (pix.width, pix.height)))
            steps.append(String(format: "deskew %.1f°", angle))
        }

        // On the deskewed image: lines whose tilt still changes from top to bottom.
        if options.levelFans, let height = textHeight, let fan = LineFan.measure(pix, textHeight: height),
           LineFan.worthCorrecting(fan, width: pix.width, textHeight: height) {
            let bytes = pix.grayBytes()
            let paper = paperGray(bytes, pixelCount: pix.pixelCount)
            let level = LineFan.level(bytes, width: pix.width, height: pix.height, fan: fan, paper: paper)
            map.append(.fan(fan, pad: level.pad, width: pix.width))
            pix = try PixImage.gray(level.bytes, width: pix.width, height: level.height)
            steps.append(String(format: "level fanned lines (%.1f° to %.1f°)",
                                fan.angle(atRow: fan.yLow), fan.angle(atRow: fan.yHigh)))
        }

        // Last, on the levelled image: what bend is left is the label's own curve.
        if options.straightenCurves, let height = textHeight {
            let bytes = pix.grayBytes()
            if let bend = Curvature.measure(bytes, width: pix.width, height: pix.height, textHeight: height),
               Curvature.worthCorrecting(bend, textHeight: height) {
                let paper = paperGray(bytes, pixelCount: pix.pixelCount)
                let straight = Curvature.straighten(bytes, width: pix.width, height: pix.height, bend: bend, paper: paper)
                map.append(.columnShift(Curvature.columnShifts(bend, width: pix.width)))
                pix = try PixImage.gray(straight.bytes, width: pix.width, height: straight.height)
                steps.append(String(format: "straighten curved lines (bow %.0f px)", bend.bow))
            }
        }

        if let tile = fadedTile {
            // Each tile's darkest and lightest gray are stretched to black and white, so print a
            // glare has washed to light gray is as dark as the rest for Tesseract's threshold.
            pix = try pix.map("pixContrastNorm") { pixContrastNorm(nil, $0, Int32(tile), Int32(tile), Int32(Self.fadedInkMinimumRange), 2, 2) }
            steps.append("restore faded print")
        }
        return PreprocessedImage(image: pix, steps: steps, map: map, maybeUpsideDown: maybeUpsideDown,
                                 quarterTurns: turns, textHeight: sourceTextHeight)
    }

    /// Lines tilted at least this many degrees: a quarter turn is checked on a straightened copy (see `run`).
    static let recheckOrientationAbove = 10.0

    // MARK: - Steps

    /// The gray image with a measured motion streak undone, and the step listed; nil when no streak is measured.
    static func deblurred(_ gray: PixImage) throws -> (PixImage, String)? {
        let bytes = gray.grayBytes()
        guard let streak = MotionBlur.measure(bytes, width: gray.width, height: gray.height),
              MotionBlur.isStreak(streak) else { return nil }
        let sharp = MotionBlur.deblurred(bytes, width: gray.width, height: gray.height, streak: streak)
        return (try PixImage.gray(sharp, width: gray.width, height: gray.height),
                String(format: "undo motion blur (%.0f px at %.0f°)", streak.length, streak.degrees))
    }

    /// The gray image with print out of focus sharpened, and the step listed; nil when its edges
    /// measure as steep as sharp print's (`Defocus`).
    static func refocused(_ gray: PixImage, textHeight: Double) throws -> (PixImage, String)? {
        let bytes = gray.grayBytes()
        guard let measure = Defocus.measure(bytes, width: gray.width, height: gray.height, textHeight: textHeight),
              Defocus.isDefocused(measure) else { return nil }
        let sigma = Defocus.sigma(measure)
        let sharp = Defocus.deblurred(bytes, width: gray.width, height: gray.height, sigma: sigma)
        return (try PixImage.gray(sharp, width: gray.width, height: gray.height),
                String(format: "undo defocus (blur %.1f px, edges %.2f of the print height)", sigma, measure.share))
    }

    /// Heavy grain averaged out: three passes of a 3×3 box filter (close to a Gaussian of σ 1.4 px).
    ///
    /// A median suits light grain; on heavy grain (what a second median still finds) it leaves broken
    /// strokes and specks, which a box filter averages out.
    static func smoothedGrain(_ gray: PixImage) throws -> PixImage {
        var pix = gray
        for _ in 0..<3 { pix = try pix.map("pixBlockconv") { pixBlockconv($0, 1, 1) } }
        return pix
    }

    /// A 3×3 median of `pix` when its grain is large against its contrast, and that ratio.
    ///
    /// In a photo taken in poor light the sensor noise is nearly as strong as the
    /// difference between ink and paper: the specks look like tiny letters to the
    /// text-height estimate (which then asks for a 4× upscale) and like words to
    /// Tesseract. A median removes specks and keeps strokes wider than a pixel.
    /// Grain is the mean absolute change the median makes; contrast is the Otsu
    /// separation of the gray levels.
    static func denoised(_ pix: PixImage, threshold: Double = PreprocessOptions().grainThreshold) throws -> (PixImage, Double)? {
        guard let median = PixImage(pixMedianFilter(pix.pointer, 3, 3)) else { return nil }
        let a = pix.grayBytes(), b = median.grayBytes()
        guard !a.isEmpty, a.count == b.count else { return nil }
        var sum = 0
        for i in 0..<a.count { sum &+= abs(Int(a[i]) - Int(b[i])) }
        let grain = Double(sum) / Double(a.count)
        let contrast = GrayStats(a, step: max(1, a.count / 250_000)).otsu.separation
        guard contrast > 0 else { return nil }
        let ratio = grain / contrast
        return ratio > threshold ? (median, ratio) : nil
    }

    /// Converts to 8-bit gray, choosing the channel where ink and paper differ most.
    ///
    /// Luminance throws away contrast on coloured packaging: black text on red
    /// film is nearly invisible in the luminance image but stark in the red
    /// channel, white text on red is clearest in green or blue.
    static func toGray(_ pix: PixImage, bestChannel: Bool) throws -> (PixImage, String) {
        if pix.depth == 32 {
            if bestChannel {
                let choice = bestChannelIndex(pix)
                if choice > 0 {
                    let component = Int32([COLOR_RED, COLOR_GREEN, COLOR_BLUE][choice - 1])
                    let name = ["red", "green", "blue"][choice - 1]
                    return (try pix.map("pixGetRGBComponent") { pixGetRGBComponent($0, component) },
                            "grayscale (\(name) channel)")
                }
            }
            return (try pix.map("pixConvertRGBToLuminance") { pixConvertRGBToLuminance($0) }, "grayscale")
        }
        if pix.depth == 8, pixGetColormap(pix.pointer) == nil {
            return (pix, "grayscale")
        }
        // Colormapped, 1/2/4/16 bpp: Leptonica's generic conversion handles them all.
        return (try pix.map("pixConvertTo8") { pixConvertTo8($0, 0) }, "grayscale")
    }

    /// 0 = luminance, 1/2/3 = red/green/blue: whichever separates its two Otsu classes best.
    ///
    /// A channel must beat luminance clearly (by a quarter) to be chosen, so
    /// ordinary black-on-white photos keep the smoother luminance image.
    static func bestChannelIndex(_ pix: PixImage) -> Int {
        let w = pix.width, h = pix.height
        let wpl = Int(pixGetWpl(pix.pointer))
        guard let data = pixGetData(pix.pointer) else { return 0 }
        var hists = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 4)
        let step = max(1, Int((Double(w * h) / 200_000).squareRoot()))
        for y in stride(from: 0, to: h, by: step) {
            let row = data + y * wpl
            for x in stride(from: 0, to: w, by: step) {
                // Leptonica's RGB word: red in the top byte, then green, then blue.
                let v = row[x]
                let r = Int(v >> 24), g = Int((v >> 16) & 0xFF), b = Int((v >> 8) & 0xFF)
                hists[1][r] += 1; hists[2][g] += 1; hists[3][b] += 1
                hists[0][(r * 3 + g * 6 + b + 5) / 10] += 1
            }
        }
        let scores = hists.map { GrayStats(histogram: $0).otsu.separation }
        var best = 0
        for i in 1...3 where scores[i] > scores[best] * 1.25 && scores[i] > scores[0] * 1.25 { best = i }
        return best
    }

    /// Light text on a dark ground: the dark side is the majority and the letters do not say otherwise,
    /// or, on a near-even split, the light side's letters clearly outnumber and outsize the dark side's.
    /// Letters are checked because a white label on a dark table, or white print on a panel, misleads the majority.
    static func isLightOnDark(_ pix: PixImage, split: GrayStats.Split) -> Bool {
        guard split.darkFraction > evenSplitDarkFraction, split.separation > 15 else { return false }
        let letters = letterAreas(pix, threshold: split.threshold)
        if split.darkFraction <= darkMajority {
            guard let (dark, light) = letters else { return false }
            return light.count >= minLettersForPolarity && light.count > dark.count
                && light.area > evenSplitLetterRatio * dark.area
        }
        if let (dark, light) = letters, dark.count + light.count >= minLettersForPolarity {
            return light.area > 2 * dark.area
        }
        return true
    }

    /// Dark share above which the dark side is the ground unless the letters say otherwise.
    static let darkMajority = 0.6
    /// Least dark share of a near-even split whose letters may still ask for inverting.
    static let evenSplitDarkFraction = 0.3
    /// On a near-even split, the light side's letters must cover this many times the dark side's.
    static let evenSplitLetterRatio = 3

    /// The letter-sized blobs of each side of the split taken as ink: the dark side's, the light side's.
    static func letterAreas(_ pix: PixImage, threshold: Int)
        -> (dark: (count: Int, area: Int), light: (count: Int, area: Int))? {
        guard let dark = PixImage(pixThresholdToBinary(pix.pointer, Int32(threshold))),
              let light = PixImage(pixInvert(nil, dark.pointer)),
              let darkLetters = letterArea(dark), let lightLetters = letterArea(light) else { return nil }
        return (darkLetters, lightLetters)
    }

    /// Fewer letter-sized blobs than this on both sides together: polarity falls back to the majority rule.
    static let minLettersForPolarity = 12

    /// Count and summed box area of the letter-sized blobs of a binary image's ink (its 1 pixels).
    static func letterArea(_ binary: PixImage) -> (count: Int, area: Int)? {
        guard let boxes = pixConnCompBB(binary.pointer, 8) else { return nil }
        var boxesVar: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&boxesVar) }
        let maxH = max(3, binary.height / 4), maxW = max(3, binary.width / 4)
        var count = 0, area = 0
        for i in 0..<Int(boxaGetCount(boxes)) {
            var x: Int32 = 0, y: Int32 = 0, bw: Int32 = 0, bh: Int32 = 0
            boxaGetBoxGeometry(boxes, Int32(i), &x, &y, &bw, &bh)
            // A letter or a few touching ones: not a speck, not the ground, not a rule.
            guard bh >= 3, Int(bh) <= maxH, Int(bw) <= maxW, bw * bh >= 9, bw <= bh * 4, bh <= bw * 6 else { continue }
            count += 1
            area += Int(bw * bh)
        }
        return (count, area)
    }

    /// Median height of character-sized blobs, in pixels; nil when there are too few to trust.
    static func medianTextHeight(_ pix: PixImage, threshold: Int) -> Double? {
        guard let binary = PixImage(pixThresholdToBinary(pix.pointer, Int32(threshold))) else { return nil }
        guard let boxes = pixConnCompBB(binary.pointer, 8) else { return nil }
        var boxesVar: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&boxesVar) }
        let n = Int(boxaGetCount(boxes))
        let maxH = pix.height / 2, maxW = pix.width / 3
        var heights: [Int] = []
        heights.reserveCapacity(n)
        for i in 0..<n {
            var x: Int32 = 0, y: Int32 = 0, bw: Int32 = 0, bh: Int32 = 0
            boxaGetBoxGeometry(boxes, Int32(i), &x, &y, &bw, &bh)
            // Drop specks, rules and frames: characters are small and roughly upright.
            guard bh >= 3, bh <= maxH, bw <= maxW, bw * bh >= 6, bw <= bh * 4 else { continue }
            heights.append(Int(bh))
        }
        guard heights.count >= 8 else { return nil }
        heights.sort()
        return Double(heights[heights.count / 2])
    }

    /// Least gray range (lightest minus darkest) of a tile that holds print.
    static let fadedInkMinimumRange = 40
    /// Paper at least this light where print fades: a glare brightens what it washes out.
    static let glarePaper = 240

    /// The tile size for `pixContrastNorm` when a patch of the print is washed out by glare, or nil
    /// when the ink is about as dark everywhere: several neighbouring print tiles of low range on
    /// near-white paper (a glare brightens what it washes out; a shadow is left to background normalisation).
    static func fadedInkTile(_ pix: PixImage, textHeight: Double?) -> Int? {
        let tile = max(24, Int((3 * (textHeight ?? 24)).rounded()))
        let w = pix.width, h = pix.height
        let cols = w / tile, rows = h / tile
        guard pix.depth == 8, cols >= 2, rows >= 2, cols * rows >= 8, let data = pixGetData(pix.pointer) else { return nil }
        let wpl = Int(pixGetWpl(pix.pointer))
        // About 24 × 24 samples a tile, read straight from Leptonica's words (big-endian bytes).
        let step = max(1, tile / 24)
        var ranges: [Int] = [], papers: [Int] = [], cells: [Int] = []
        var hist = [Int](repeating: 0, count: 256)
        for ty in 0..<rows {
            for tx in 0..<cols {
                for k in 0..<256 { hist[k] = 0 }
                for y in stride(from: ty * tile, to: (ty + 1) * tile, by: step) {
                    let row = data + y * wpl
                    for x in stride(from: tx * tile, to: (tx + 1) * tile, by: step) {
                        hist[Int((row[x >> 2] >> UInt32(24 - 8 * (x & 3))) & 0xFF)] += 1
                    }
                }
                let stats = GrayStats(histogram: hist)
                let ink = stats.percentile(0.01), paper = stats.percentile(0.95)
                guard paper - ink >= fadedInkMinimumRange else { continue }
                ranges.append(paper - ink)
                papers.append(paper)
                cells.append(ty * cols + tx)
            }
        }
        guard ranges.count >= 8 else { return nil }
        let median = Double(ranges.sorted()[ranges.count / 2])
        var washed = Set<Int>()
        for i in 0..<ranges.count where Double(ranges[i]) <= 0.45 * median && papers[i] >= glarePaper { washed.insert(cells[i]) }
        let patch = washed.filter { c in
            (c % cols > 0 && washed.contains(c - 1)) || (c % cols < cols - 1 && washed.contains(c + 1))
                || washed.contains(c - cols) || washed.contains(c + cols)
        }.count
        return patch >= 3 && patch * 10 >= ranges.count ? tile : nil
    }

    /// How uneven the paper is: the gap in gray levels between the brightest
    /// and the darkest tile background (each tile's 90th percentile), over a 6×6 grid.
    static func backgroundSpread(_ pix: PixImage) -> Int {
        let bytes = pix.grayBytes()
        let w = pix.width, h = pix.height, grid = 6
        guard w >= grid * 8, h >= grid * 4 else { return 0 }
        var backgrounds: [Int] = []
        for ty in 0..<grid {
            for tx in 0..<grid {
                var hist = [Int](repeating: 0, count: 256)
                let x0 = tx * w / grid, x1 = (tx + 1) * w / grid
                let y0 = ty * h / grid, y1 = (ty + 1) * h / grid
                let step = max(1, (x1 - x0) / 64)
                for y in stride(from: y0, to: y1, by: step) {
                    for x in stride(from: x0, to: x1, by: step) { hist[Int(bytes[y * w + x])] += 1 }
                }
                backgrounds.append(GrayStats(histogram: hist).percentile(0.9))
            }
        }
        backgrounds.sort()
        // Ignore the two most extreme tiles on each side: a logo or a
        // specular highlight should not trigger normalisation alone.
        return backgrounds[backgrounds.count - 3] - backgrounds[2]
    }

    /// The rotation (degrees) that makes text lines horizontal, or nil when
    /// the image is straight enough or the estimate is not confident.
    ///
    /// `pixFindSkewAndDeskew` searches only ±7°; labels are often photographed
    /// at 10–30°. Leptonica's sweep measures line alignment after a vertical
    /// shear, which straightens lines exactly at any angle, so we sweep ±45°
    /// in 1° steps at reduced scale and refine with its binary search.
    static func skewAngle(_ pix: PixImage) throws -> Double? {
        guard let binary = inkMask(pix) else { return nil }
        let reduction: Int32 = pix.width >= 1600 ? 4 : (pix.width >= 800 ? 2 : 1)
        guard let (angle, conf) = sweep(binary, reduction: reduction) else { return nil }
        // Leptonica's own deskew asks for confidence 3 over ±7°; over ±45° the score spreads across more
        // angles, so 1.5 is asked (straight photos give spurious readings only below it). Under 1° a
        // rotation costs more sharpness than it gains.
        guard conf >= 1.5, abs(angle) >= 1, abs(angle) < 45 else { return nil }
        return Double(angle)
    }

    /// `pix` split at its Otsu threshold (ink set), for Leptonica's skew sweeps.
    static func inkMask(_ pix: PixImage) -> PixImage? {
        let split = GrayStats(pix.grayBytes(), step: max(1, pix.pixelCount / 250_000)).otsu
        return PixImage(pixThresholdToBinary(pix.pointer, Int32(split.threshold)))
    }

    /// The paper's gray in `bytes` (an image of `pixelCount` pixels): what new canvas is filled with.
    static func paperGray(_ bytes: [UInt8], pixelCount: Int) -> UInt8 {
        UInt8(GrayStats(bytes, step: max(1, pixelCount / 100_000)).percentile(0.6))
    }

    /// Rotates by `degrees`, growing the canvas so no corner is cut, and
    /// fills the new corners with the paper colour rather than white or black
    /// so Tesseract does not see their edges as ink.
    static func rotate(_ pix: PixImage, degrees: Double) throws -> PixImage {
        let radians = Float(degrees * .pi / 180)
        let w = Int32(pix.width), h = Int32(pix.height)
        let rotated = try pix.map("pixRotate") { pixRotate($0, radians, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), w, h) }
        let paper = paperGray(pix.grayBytes(), pixelCount: pix.pixelCount)
        // Rotate an all-white mask the same way; what comes back black is new canvas.
        guard let mask = PixImage(pixCreate(w, h, 8)) else { return rotated }
        pixSetAllGray(mask.pointer, 255)
        guard let rotatedMask = PixImage(pixRotate(mask.pointer, radians, Int32(L_ROTATE_SAMPLING), Int32(L_BRING_IN_BLACK), w, h)),
              let outside = PixImage(pixThresholdToBinary(rotatedMask.pointer, 128)) else { return rotated }
        pixSetMasked(rotated.pointer, outside.pointer, UInt32(paper))
        return rotated
    }
}
