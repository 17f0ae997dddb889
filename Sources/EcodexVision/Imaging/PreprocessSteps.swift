import Foundation
internal import CLeptonica

/// Benchmark entry point: the steps of `Preprocessor.run` and `TextRegions.find`, each on
/// its own, so the package-benchmark suite in `Benchmarks/` (a separate package, which can
/// only see public API) can time one step at a time. The scanner never uses it.
///
/// `init` decodes the photo once and walks the preprocessing order of `Preprocessor.run`
/// on the whole photo, keeping the image each step is given. Every step is kept whether
/// or not its measurement fires on this photo (a rescale that `Preprocessor.run` would
/// skip is timed at the scale it measured, a deskew with no confident angle is timed at
/// 5°), so each step is timed on a realistic input; `stepsRun` says which ones
/// `Preprocessor.run` really applies to this photo. `run(_:)` repeats one step on its
/// kept input and returns a number derived from the result (for `blackHole`).
public final class PreprocessSteps: @unchecked Sendable {
    /// One step, in the order `TesseractLabelReader.read(imageAt:)` and `Preprocessor.run` take them.
    public enum Step: String, CaseIterable, Sendable {
        /// Decode the file into a Leptonica image (`ImageLoader.load`).
        case decode = "decode the file"
        /// `TextRegions.find`: the blocks of small text on a camera frame.
        case textBlocks = "find text blocks"
        /// Pick the colour channel and convert to 8-bit gray.
        case gray = "grayscale (channel choice)"
        /// The 3×3 median and the grain measure of the denoise step.
        case denoise = "denoise measure (3x3 median)"
        /// Gray histogram and Otsu split (the polarity decision).
        case polarity = "gray statistics and Otsu (polarity)"
        /// Median height of letter-sized blobs.
        case textHeight = "median text height"
        /// Rescale to the target text height.
        case rescale = "rescale"
        /// Leptonica's quarter-turn orientation test.
        case orientation = "orientation test"
        /// Background unevenness over a 6×6 grid, then `pixBackgroundNormSimple`.
        case background = "background spread and normalisation"
        /// The ±45° skew sweep and search.
        case skew = "skew search"
        /// Rotation by the skew angle with the paper-coloured corners.
        case rotate = "rotate"
        /// Measuring the bend of curved lines.
        case curvature = "curvature measure"
        /// `Preprocessor.run` on the whole photo, all steps with their own decisions.
        case wholePhoto = "Preprocessor.run on the whole photo"
        /// What the scanner does on a camera frame: `TextRegions.find`, then crop and
        /// `Preprocessor.run` every block found (the whole photo when none is).
        case scannerPath = "text blocks, then each block prepared"
    }

    /// Size of the decoded photo.
    public let width: Int, height: Int
    /// The steps `Preprocessor.run` applies to the whole photo, as it lists them.
    public let stepsRun: [String]
    /// Text blocks `TextRegions.find` returns for the photo.
    public let blockCount: Int

    private let path: String
    private let photo: PixImage
    private let blocks: [TextRegions.Block]
    private let gray: PixImage
    private let leveled: PixImage          // after denoise and invert: what text height and rescale see
    private let threshold: Int
    private let scale: Double
    private let scaled: PixImage           // input of orientation and background
    private let normalized: PixImage       // input of the skew search and rotation
    private let angle: Double
    private let textHeight: Double
    private let options = PreprocessOptions()

    /// Decodes the photo at `path` and prepares every step's input.
    public init(imageAt path: String) throws {
        let options = PreprocessOptions()
        self.path = path
        let photo = try ImageLoader.load(path)
        self.photo = photo
        width = photo.width
        height = photo.height
        blocks = TextRegions.find(photo)
        blockCount = blocks.count
        stepsRun = try Preprocessor.run(photo, options: options).steps

        let gray = try Preprocessor.toGray(photo, bestChannel: options.bestChannel).0
        self.gray = gray
        var pix = gray
        if let (clean, _) = try Preprocessor.denoised(pix, threshold: options.grainThreshold) { pix = clean }
        var split = GrayStats(pix.grayBytes(), step: max(1, pix.pixelCount / 250_000)).otsu
        if Preprocessor.isLightOnDark(pix, split: split) {
            pix = try pix.map("pixInvert") { pixInvert(nil, $0) }
            split = GrayStats(pix.grayBytes(), step: max(1, pix.pixelCount / 250_000)).otsu
        }
        leveled = pix
        threshold = split.threshold
        let measured = Preprocessor.medianTextHeight(pix, threshold: split.threshold)
        let cap = (Double(options.maxWorkPixels) / Double(pix.pixelCount)).squareRoot()
        let s = min(options.targetTextHeight / (measured ?? options.targetTextHeight / 2), cap, 4)
        scale = s
        let scaled = try pix.map("pixScale") { pixScale($0, Float(s), Float(s)) }
        self.scaled = scaled
        textHeight = (measured ?? options.targetTextHeight / 2) * s
        let normalized = try scaled.map("pixBackgroundNormSimple") { pixBackgroundNormSimple($0, nil, nil) }
        self.normalized = normalized
        angle = try Preprocessor.skewAngle(normalized) ?? 5
    }

    /// Runs `step` once on its kept input.
    @discardableResult
    public func run(_ step: Step) throws -> Int {
        switch step {
        case .decode:
            return try ImageLoader.load(path).pixelCount
        case .textBlocks:
            return TextRegions.find(photo).count
        case .gray:
            return try Preprocessor.toGray(photo, bestChannel: options.bestChannel).0.pixelCount
        case .denoise:
            return try Preprocessor.denoised(gray, threshold: options.grainThreshold) == nil ? 0 : 1
        case .polarity:
            let split = GrayStats(gray.grayBytes(), step: max(1, gray.pixelCount / 250_000)).otsu
            return Preprocessor.isLightOnDark(gray, split: split) ? split.threshold + 256 : split.threshold
        case .textHeight:
            return Int(Preprocessor.medianTextHeight(leveled, threshold: threshold) ?? 0)
        case .rescale:
            let s = Float(scale)
            return try leveled.map("pixScale") { pixScale($0, s, s) }.pixelCount
        case .orientation:
            return try Preprocessor.orientation(scaled, threshold: threshold) ?? 0
        case .background:
            let spread = Preprocessor.backgroundSpread(scaled)
            return try scaled.map("pixBackgroundNormSimple") { pixBackgroundNormSimple($0, nil, nil) }.pixelCount + spread
        case .skew:
            return Int((try Preprocessor.skewAngle(normalized) ?? 0) * 100)
        case .rotate:
            return try Preprocessor.rotate(normalized, degrees: angle).pixelCount
        case .curvature:
            let bytes = normalized.grayBytes()
            let bend = Curvature.measure(bytes, width: normalized.width, height: normalized.height, textHeight: textHeight)
            return bend == nil ? 0 : 1
        case .wholePhoto:
            return try Preprocessor.run(photo, options: options).image.pixelCount
        case .scannerPath:
            let found = TextRegions.find(photo)
            guard !found.isEmpty else { return try Preprocessor.run(photo, options: options).image.pixelCount }
            var pixels = 0
            for b in found {
                let crop = try photo.cropped(x: b.x, y: b.y, width: b.width, height: b.height)
                pixels += try Preprocessor.run(crop, options: options).image.pixelCount
            }
            return pixels
        }
    }
}
