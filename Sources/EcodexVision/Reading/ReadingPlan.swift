import EcodexCore

/// What the reader measured of a photo before reading it: its decoded size and the text blocks
/// found in it (none for a crop of a label, or when block finding is off).
struct PhotoMeasurements: Equatable, Sendable {
    var width: Int
    var height: Int
    var blocks: [TextRegions.Block] = []
}

/// How a reader is set up, as far as its plans go.
struct ReadingPolicy: Equatable, Sendable {
    /// Scenes are searched for text blocks (`PreprocessOptions.findTextBlocks`).
    var findTextBlocks = true
    /// Scenes are read with the Latin-script model (in use and installed).
    var hasSceneModel = true
    /// Pages whose mean word confidence is below this are read again; 0 turns retries off.
    var retryBelowConfidence = 75.0
    /// A photo whose shorter side is below this is never a camera frame: it is read whole.
    var minFrameSide = TextRegions.Settings().minFrameSide
    /// `ReadingPlan.secondEngineMinLetters`, lowered by tests.
    var secondEngineMinLetters = ReadingPlan.secondEngineMinLetters
}

/// How one photo is read, decided from its measurements alone: what is cut from it, which
/// engine reads it, in which page mode, whether an unsure page is read again and whether a
/// second engine helps. Pure, so every rule is testable without Tesseract.
struct ReadingPlan: Equatable, Sendable {
    /// What the photo is read as.
    enum Kind: Equatable, Sendable {
        /// The photo whole, as a crop of a label: the first-pass languages, retried when unsure.
        case crop
        /// The text blocks of a scene, one after the other (`blocks`).
        case blocks
        /// A camera frame where no block stands out, read whole as a scene (mostly label).
        case frame
    }

    /// The engine that reads the photo.
    enum Engine: Equatable, Sendable {
        /// The first-pass languages (`LanguagePlan.firstPass`).
        case firstPass
        /// The Latin-script model without its word list.
        case scene
    }

    var kind: Kind
    /// The blocks to read, in reading order (top to bottom, then left to right); empty unless `.blocks`.
    var blocks: [TextRegions.Block]
    var engine: Engine
    /// A second scene engine reads blocks beside the first.
    var secondEngine: Bool
    /// An unsure page is read again with more languages (`LanguagePlan.retryLanguages`).
    var retry: Bool

    /// Read as a scene: the Latin-script engine, no retry.
    var scene: Bool { engine == .scene }
    /// Unsure lines of a scene are read again alone, enlarged (`LineRetry`); crops have the language retry.
    var retryLines: Bool { scene }
    /// Tesseract also reads each unsure line inverted: a whole frame mixes white print on
    /// coloured panels with dark print on paper, and no single inversion fits.
    var tryInverted: Bool { kind == .frame }

    /// Plans the reading of a photo measured as `photo`; `cores`: engines that may read the
    /// blocks of this one photo at once (2 when it has the cores to itself, 1 in a batch).
    init(_ photo: PhotoMeasurements, policy: ReadingPolicy, cores: Int) {
        let isFrame = min(photo.width, photo.height) >= policy.minFrameSide
        if !photo.blocks.isEmpty {
            kind = .blocks
        } else if photo.blocks.isEmpty && policy.hasSceneModel && policy.findTextBlocks && isFrame {
            kind = .frame
        } else {
            kind = .crop
        }
        blocks = kind == .blocks ? Self.readingOrder(photo.blocks) : []
        engine = policy.hasSceneModel && kind != .crop ? .scene : .firstPass
        secondEngine = cores >= 2 && engine == .scene
            && Self.secondEnginePays(photo.blocks, from: policy.secondEngineMinLetters)
        retry = policy.retryBelowConfidence > 0 && engine != .scene
    }

    /// Whether the whole-photo engine can start from the photo's header, before decoding: a photo
    /// below the frame size, or a reader that finds no blocks or has no scene model, is read whole.
    static func firstPassFromHeader(width: Int, height: Int, policy: ReadingPolicy) -> Bool {
        !policy.findTextBlocks || !policy.hasSceneModel || min(width, height) < policy.minFrameSide
    }

    /// Reading order of blocks: top to bottom (rows more than two line heights apart), then left to right.
    static func readingOrder(_ blocks: [TextRegions.Block]) -> [TextRegions.Block] {
        blocks.sorted { abs($0.y - $1.y) > Int($0.lineHeight * 2) ? $0.y < $1.y : $0.x < $1.x }
    }

    // MARK: - Page modes

    /// Page segmentation mode for crops: 6 ("one uniform block of text") read the most
    /// words on the gold-set photos, which are crops of one ingredient panel.
    static let defaultPageSegMode: Int32 = 6
    /// Text blocks cut from a scene are read with mode 4 ("one column of text of variable sizes"): a
    /// block often holds a heading, the list and a side column. Camera frames read whole (no block
    /// found) use it too: read as a scene rather than a crop, they read as well in far less time.
    static let blockPageSegMode: Int32 = 4
    /// A photo read whole as a scene whose print is this many pixels high or more is a photo of
    /// the ingredient panel itself, and is read in `panelPageSegMode`.
    ///
    /// A shopper who photographs the list close gets a photo of 700 px and more with the label
    /// over most of it, so no block stands out and it is read as a scene. Mode 6 reads such
    /// panels' lines that mode 4 loses; camera frames with small print (3–10 px) keep mode 4,
    /// where mode 6 reads false codes (docs/history.md).
    static let panelPrintHeight = 12.0
    static let panelPageSegMode: Int32 = defaultPageSegMode

    /// The page mode to read with, once the first piece's print height (in the photo) is
    /// measured; nil: the engine's own (a crop, `defaultPageSegMode` unless set otherwise).
    func pageSegMode(printHeight: Double?) -> Int32? {
        switch kind {
        case .crop: nil
        case .blocks: Self.blockPageSegMode
        case .frame: (printHeight ?? 0) >= Self.panelPrintHeight ? Self.panelPageSegMode : Self.blockPageSegMode
        }
    }

    // MARK: - A second engine

    /// Letters (`TextRegions.Block.letters`) outside a scene's block with the most, from which
    /// a second engine reads blocks beside the first: with fewer, its start costs more than it saves.
    static let secondEngineMinLetters = 100

    /// Whether a second engine pays for itself on `blocks`: two blocks or more, and enough
    /// letters outside the one with the most.
    static func secondEnginePays(_ blocks: [TextRegions.Block], from minLetters: Int) -> Bool {
        guard blocks.count >= 2 else { return false }
        let letters = blocks.map(\.letters)
        return letters.reduce(0, +) - letters.max()! >= minLetters
    }

    // MARK: - Retries

    /// A reading of an image that may be upside down is tried turned below this mean confidence
    /// (upright labels read 85-95; the sample upside down reads 59).
    static let halfTurnRereadBelow = 75.0
    /// How much surer (mean word confidence) the turned reading must be to replace the first.
    static let halfTurnMargin = 10.0

    /// Whether a piece Leptonica leaned to see upside down (too weakly to turn it) is read turned
    /// too: only when the upright reading finished and was unsure.
    static func triesHalfTurn(maybeUpsideDown: Bool, first: [RecognizedWord], cut: Bool) -> Bool {
        maybeUpsideDown && !cut && meanConfidence(first) < halfTurnRereadBelow
    }

    /// Whether the turned reading replaces the upright one: complete and surer by `halfTurnMargin`.
    static func keepsTurned(_ turned: [RecognizedWord], cut: Bool, over first: [RecognizedWord]) -> Bool {
        !cut && meanConfidence(turned) > meanConfidence(first) + halfTurnMargin
    }

    /// A retry needs time to finish: with less than this left, the first reading is kept.
    static let minRetryMs = 1_000

    static func meanConfidence(_ words: [RecognizedWord]) -> Double {
        words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }
}

/// The languages a reader uses, decided from those asked for and those installed.
///
/// With the default languages it reads English alone first (cheap to start; most labels read
/// confidently) and re-reads an unsure page with English and the languages that pass shows
/// (`retryLanguages`), an engine far lighter than one with all six.
struct LanguagePlan: Equatable, Sendable {
    /// Every language the reader may use.
    var all: [String]
    /// The languages of the first, whole-page pass.
    var firstPass: [String]
    /// Pages whose mean word confidence is below this are read again; 0: never.
    var retryBelowConfidence: Double

    /// `requested` nil: the default English-first reading of every installed label language.
    /// The command line's "eng+deu" spelling is accepted as well as separate codes.
    init(requested: [String]?, installed: @autoclosure () -> [String], retryBelowConfidence: Double) {
        let chosen = requested.map { $0.flatMap { $0.split(separator: "+").map(String.init) } } ?? installed()
        all = chosen
        // Explicit languages are used as given; the default set reads English
        // first and keeps the others for pages English could not read well.
        if requested == nil, chosen.count > 1, chosen.contains("eng") {
            firstPass = ["eng"]
            self.retryBelowConfidence = retryBelowConfidence
        } else {
            firstPass = chosen
            self.retryBelowConfidence = 0
        }
    }

    /// Whether a page of `words` is unsure enough to read again.
    func retries(_ words: [RecognizedWord]) -> Bool {
        ReadingPlan.meanConfidence(words) < retryBelowConfidence
    }

    /// The languages to re-read an unsure English reading with: English and the other label
    /// languages it shows (`LabelLanguages.guess`); every language when it shows none (or
    /// only languages not installed); nil, no second reading, when it shows English alone.
    func retryLanguages(for words: [RecognizedWord]) -> [String]? {
        let shown = LabelLanguages.guess(words.map { ($0.text, $0.confidence) })
        let others = all.filter { $0 != "eng" && shown.contains($0) }
        if others.isEmpty { return shown.contains("eng") ? nil : all }
        return all.filter { $0 == "eng" } + others
    }
}

/// The time a photo's recognition has left: its own budget, counted from the end of
/// preprocessing less the time spent waiting for a shared engine, or a burst's deadline when
/// that comes first. Times are `DispatchTime` nanoseconds, given by the caller.
struct TimeLeft: Sendable {
    let budgetMs: Int
    /// When recognition began.
    let from: UInt64
    let deadline: UInt64?
    /// Time spent waiting for the shared retry engine (another photo of a batch had it, or it
    /// was starting): not this photo's reading, so not taken from its budget.
    var waitedMs = 0.0

    /// Milliseconds left at `now`, and whether the deadline (not the budget) sets it.
    func at(_ now: UInt64) -> (ms: Int, byDeadline: Bool) {
        let ofBudget = budgetMs - Int(Double(now - from) / 1_000_000 - waitedMs)
        guard let deadline else { return (ofBudget, false) }
        let toDeadline = (Int64(bitPattern: deadline) - Int64(bitPattern: now)) / 1_000_000
        return toDeadline < Int64(ofBudget) ? (Int(toDeadline), true) : (ofBudget, false)
    }
}
