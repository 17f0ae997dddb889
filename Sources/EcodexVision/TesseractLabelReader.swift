import EcodexCore
import Foundation

/// Reads label photos with Leptonica preprocessing and the Tesseract LSTM engine.
///
/// Engines are started once per instance and reused for every image, so create
/// the reader once.
///
/// With the default languages the reader reads with English alone first and
/// re-reads a page only when the English pass was unsure (mean word confidence
/// below 75). Measured on goldset/real: starting all six models costs about 0.5 s
/// of CPU against 0.1 s for English, and reading with them is about 2.5× slower,
/// while 16 of the 23 photos read confidently in English; words found were 0.834
/// English only, 0.847 with the retry, 0.851 with all six languages on every page.
/// The retry reads with English and the languages the English pass shows
/// (`retryLanguages`): an engine of English and one other language holds about 50 MB
/// against 130 MB for all six, and on the gold set's unsure crops it reads as well (docs/history.md).
///
/// Word boxes are in the pixel coordinates of the preprocessed image (after
/// any rescale and deskew listed in `OCRResult.steps`), not of the original photo.
///
/// Recognition is much faster with `OMP_THREAD_LIMIT=1`; loading Tesseract sets it unless
/// the environment already does (`VisionLibraries`, DESIGN "Facts about the platform").
public final class TesseractLabelReader: LabelReader {
    /// Every language the reader may use, e.g. `["eng", "deu"]`; the first pass uses `firstPassLanguages`.
    public let languages: [String]
    /// The languages of the first, whole-page pass.
    let firstPassLanguages: [String]
    /// The folder the language files were loaded from.
    public let dataPath: String

    /// The languages as asked for (nil: the default English-first reading), to start twins alike.
    private let requestedLanguages: [String]?
    /// Keep a small JPEG copy of each photo in its result (`OCRResult.preview`), for the HTML page.
    public var keepsPreview = false
    /// The preview's longer side, pixels: enough to see which words were outlined.
    static let previewMaxSide = 900
    /// More readers with engines of their own, started on first need, one per extra core.
    private(set) var twins: [TesseractLabelReader] = []
    /// At most this many photos are read at once (one engine each, about 100 MB apiece).
    static let maxParallel = 4
    /// Photos read at once by `read(imagesAt:)`: the cores this process may use unless set
    /// lower (`scan --jobs 1`); never more than `maxParallel`.
    public var parallelism = ProcessInfo.processInfo.activeProcessorCount

    /// The engine for whole photos (`firstPassLanguages`), started on first need: a phone
    /// frame read block by block never needs it, and each loaded engine holds 50–100 MB.
    /// It starts on a thread of its own as soon as a photo's header shows it will be needed,
    /// while this thread decodes and preprocesses the photo (`EngineStart`).
    private var engine: EngineStart?
    /// The engines for unsure pages (`retryLanguages`): started on first need and shared
    /// with the twins, together no heavier than one engine with every language (`SharedEngine`).
    let retryEngine: SharedEngine
    /// For scenes (camera frames, read block by block or whole when no block stands out): the
    /// Latin-script model when the default languages are in use and it is installed (started
    /// on first need); nil otherwise.
    private let sceneModel: String?
    private var sceneEngine: EngineStart?
    /// A second Latin-script engine, for reading a scene's blocks two at a time when this
    /// reader has the cores to itself (`read(imageAt:)`, one photo): started on first need.
    private var helperSceneEngine: EngineStart?
    /// Engines that read the blocks of one photo at once when it has the cores to itself.
    static let maxBlockWorkers = 2
    /// The engines a photo read alone may use for its blocks: the cores this reader may use, at most `maxBlockWorkers`.
    private var aloneBlockWorkers: Int { min(parallelism, Self.maxBlockWorkers) }
    /// Letters (`TextRegions.Block.letters`) outside a scene's block with the most, from which
    /// a second engine reads blocks beside the first: with fewer, its start (about a tenth of
    /// a second of a core, beside the preprocessing) costs more than it saves. Measured one
    /// frame at a time on the 69 scored real frames, a second engine for every frame of two
    /// blocks or more: frames whose other blocks hold under 100 letters lost 10–75 ms (all
    /// but two of the twelve); those with 400 letters and more gained 0.15–0.63 s.
    static let secondEngineMinLetters = 100
    /// `secondEngineMinLetters` for this reader (tests lower it to read small scenes on two engines).
    var secondEngineFrom = secondEngineMinLetters

    /// Whether a second engine pays for itself on `blocks`: two blocks or more, and enough
    /// letters outside the one with the most.
    static func secondEnginePays(_ blocks: [TextRegions.Block], from minLetters: Int) -> Bool {
        guard blocks.count >= 2 else { return false }
        let letters = blocks.map(\.letters)
        return letters.reduce(0, +) - letters.max()! >= minLetters
    }
    /// Every engine this reader started, in order, with the step that started it: `eng at
    /// header` (the photo's size alone settled it, before decoding) or `Latin at blocks` (after
    /// the block search). Tests: nothing is started early that the photo does not need. The
    /// shared retry engine counts its own starts.
    private(set) var enginesStarted: [String] = []
    let options: PreprocessOptions
    /// Pages whose mean word confidence is below this are read again (`retryUnsurePage`); 0 turns retries off.
    let retryBelowConfidence: Double
    /// Page segmentation mode: 6 ("one uniform block of text") read the most
    /// words on the gold-set photos, which are crops of one ingredient panel.
    static let defaultPageSegMode: Int32 = 6
    /// Text blocks cut from a scene are read with mode 4 ("one column of text of variable
    /// sizes"): a block often holds a heading, the list and a side column. On the real
    /// development set: F1 0.353 with mode 6, 0.375 with 4, 0.327 with 11, 0.178 with 3.
    /// Camera frames read whole (no block found) use it too.
    ///
    /// Such a frame is a close-up of a package, text over most of it: it was read like a
    /// crop (English, then all six languages when unsure, at up to 6 MP), 4–6 s and the time
    /// tail of the real development set. Read as a scene (the Latin-script model, this mode,
    /// Tesseract's own per-line inversion, no retry) it takes 1–1.5 s. Measured on the 69
    /// scored real frames: the same additives (13 / 0 / 22), p95 3.0 → 2.7 s; on the 62 gold
    /// images of 700 px and more: F1 0.707 → 0.706 in 56 s instead of 126 s.
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
    let pageSegMode: Int32
    /// Time limit for recognising one photo, both passes together. Labels read in well
    /// under a second; a dark, grainy photo can keep Tesseract busy on noise for a
    /// minute (seen on the gold set's hard tier), which no shopper waits for.
    public static let defaultBudgetMs = 8_000
    let budgetMs: Int
    /// The clock a photo's budget is measured on; tests may replace it.
    var now: () -> DispatchTime = { DispatchTime.now() }

    /// Starts Tesseract for `languages` (nil: the installed label languages
    /// among eng, deu, fra, spa, ita, nld) from `dataPath` (nil:
    /// `TESSDATA_PREFIX`, else `/usr/share/tesseract-ocr/5/tessdata`).
    ///
    /// Throws an `OCRError` naming the missing language file and the folder searched.
    public convenience init(languages: [String]? = nil, dataPath: String? = nil, budgetMs: Int = defaultBudgetMs) throws {
        try self.init(languages: languages, dataPath: dataPath, options: PreprocessOptions(), budgetMs: budgetMs)
    }

    init(languages: [String]?, dataPath: String?, options: PreprocessOptions,
         retryBelowConfidence: Double = 75, pageSegMode: Int32 = defaultPageSegMode,
         budgetMs: Int = defaultBudgetMs, sharing retryEngine: SharedEngine? = nil) throws {
        self.budgetMs = budgetMs
        self.requestedLanguages = languages
        let folder = TessData.folder(dataPath)
        // Accept the command line's "eng+deu" spelling as well as separate codes.
        let chosen = languages.map { $0.flatMap { $0.split(separator: "+").map(String.init) } }
            ?? Self.installedLanguages(dataPath: folder)
        try TessData.requireInstalled(chosen, in: folder)
        self.languages = chosen
        self.dataPath = folder
        self.options = options
        self.pageSegMode = pageSegMode
        // Explicit languages are used as given; the default set reads English
        // first and keeps the others for pages English could not read well.
        if languages == nil, chosen.count > 1, chosen.contains("eng") {
            firstPassLanguages = ["eng"]
            self.retryBelowConfidence = retryBelowConfidence
        } else {
            firstPassLanguages = chosen
            self.retryBelowConfidence = 0
        }
        // Tesseract starts on first use (`startFirstEngine`); the files were checked above.
        sceneModel = languages == nil && options.latinForScenes ? TessData.latinScriptModel(in: folder) : nil
        self.retryEngine = retryEngine ?? SharedEngine(budget: SharedEngine.weight(chosen)) { [pageSegMode] languages in
            try TesseractEngine(dataPath: folder, languages: languages, pageSegMode: pageSegMode)
        }
    }

    /// The label languages (eng, deu, fra, spa, ita, nld) whose `.traineddata` is installed, in that order.
    public static func installedLanguages(dataPath: String? = nil) -> [String] {
        let folder = TessData.folder(dataPath)
        return TessData.labelLanguages.filter { TessData.isInstalled($0, in: folder) }
    }

    /// Loads, preprocesses and recognises one photo.
    ///
    /// Throws a `capture_error` (`InputFileError`, `ImageError`) when the file is missing,
    /// not an image, damaged or absurdly large, and an `OCRError` when the engine fails.
    public func read(imageAt path: String) throws -> OCRResult {
        try read(imageAt: path, until: nil, blockWorkers: aloneBlockWorkers)
    }

    /// `read(imageAt:)`, stopping at `deadline` (`DispatchTime` nanoseconds) as well as at its
    /// own budget: what was read by then is kept and marked `outOfTime`; a photo whose turn
    /// comes after the deadline is not decoded at all (an empty reading, `outOfTime`).
    ///
    /// `blockWorkers`: engines that may read the blocks of one scene at once (2 when this photo
    /// has the cores to itself, 1 when other photos of a batch are read beside it).
    func read(imageAt path: String, until deadline: UInt64?, blockWorkers: Int = 1) throws -> OCRResult {
        let start = now()
        if let deadline, start.uptimeNanoseconds >= deadline {
            var none = OCRResult(words: [], steps: [], preprocessMs: 0, ocrMs: 0)
            none.outOfTime = true
            return none
        }
        // The engine starts on another thread while this one decodes and preprocesses. Every
        // start is waited for before returning, so none outlives a failed photo.
        var started: EngineStart?
        defer { _ = try? started?.engine() }
        let loaded = try ImageLoader.load(path) { width, height in
            // Below the frame size a photo is always read whole: its engine is known from the header.
            if !options.findTextBlocks || sceneModel == nil || min(width, height) < TextRegions.Settings().minFrameSide {
                started = startFirstEngine(at: "header")
            }
        }
        let blocks = options.findTextBlocks ? TextRegions.find(loaded) : []
        // A camera frame (or a bigger photo) where no block stands out is mostly label: read
        // whole, but as a scene (see `blockPageSegMode`).
        let wholeFrame = blocks.isEmpty && sceneModel != nil && options.findTextBlocks
            && min(loaded.width, loaded.height) >= TextRegions.Settings().minFrameSide
        let scene = sceneModel != nil && (!blocks.isEmpty || wholeFrame)
        if started == nil {
            // Scenes are read with the Latin-script model alone when it is there.
            started = scene ? startSceneEngine() : startFirstEngine(at: "blocks")
        }
        // A photo with the cores to itself reads a scene's blocks on two engines when the
        // blocks besides the biggest hold enough print: the second starts now, while the
        // blocks are prepared.
        let helperStart = blockWorkers >= 2 && scene && Self.secondEnginePays(blocks, from: secondEngineFrom)
            ? startHelperSceneEngine() : nil
        defer { _ = try? helperStart?.engine() }
        var pieces: [Piece] = []
        var steps: [String] = []
        if blocks.isEmpty {
            let prepared = try prepare(loaded)
            pieces = [(prepared.image, prepared.steps, prepared.map, prepared.maybeUpsideDown, prepared.textHeight)]
            steps = prepared.steps
        } else {
            // Reading order: top to bottom, then left to right.
            let ordered = blocks.sorted { abs($0.y - $1.y) > Int($0.lineHeight * 2) ? $0.y < $1.y : $0.x < $1.x }
            for b in ordered {
                let crop = try loaded.cropped(x: b.x, y: b.y, width: b.width, height: b.height)
                let prepared = try prepare(crop)
                var cut = PhotoMap()
                cut.append(.crop(x: b.x, y: b.y))
                pieces.append((prepared.image, prepared.steps, prepared.map.after(cut), prepared.maybeUpsideDown,
                               prepared.textHeight))
            }
            steps = [String(format: "text blocks: %d of %.0f%% of the photo", blocks.count,
                            100 * Double(blocks.reduce(0) { $0 + $1.width * $1.height }) / Double(loaded.pixelCount))]
                + (pieces.first?.steps ?? [])
        }
        let debugDir = ProcessInfo.processInfo.environment["ECODEX_DEBUG_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        if let dir = debugDir {
            let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            TextRegions.drawDebug(loaded, to: URL(fileURLWithPath: dir).appendingPathComponent("\(stem)-blocks.png").path)
            for (i, piece) in pieces.enumerated() {
                try? piece.image.writePNG(to: URL(fileURLWithPath: dir).appendingPathComponent("\(stem)-\(i).png").path)
            }
        }
        let prepared_at = now()
        // Time spent waiting for the shared retry engine (while another photo of the batch held
        // it, or while it started): not this photo's reading, so not taken from its budget (with it, a batch on two
        // cores lost the retries of heavy photos that one core read in full).
        var waitedMs = 0.0
        /// Milliseconds left for recognition, and whether the deadline (not the budget) sets it.
        func remaining() -> (ms: Int, byDeadline: Bool) {
            let ofBudget = budgetMs - Int(Self.ms(prepared_at, now()) - waitedMs)
            guard let deadline else { return (ofBudget, false) }
            let toDeadline = (Int64(bitPattern: deadline) - Int64(bitPattern: now().uptimeNanoseconds)) / 1_000_000
            return toDeadline < Int64(ofBudget) ? (Int(toDeadline), true) : (ofBudget, false)
        }
        var all: [OCRWord] = []
        var timedOut = false
        var outOfTime = false
        var lineBase = 0
        let reader = try engine(started!, scene: scene)
        let retry = retryBelowConfidence > 0 && !scene
        let panel = (pieces.first?.textHeight ?? 0) >= Self.panelPrintHeight
        let mode = !blocks.isEmpty ? Self.blockPageSegMode
            : wholeFrame ? (panel ? Self.panelPageSegMode : Self.blockPageSegMode) : nil
        /// One piece read by `engine`: its words, whether it was read turned, whether its reading was cut short.
        func readPiece(_ piece: Piece, with engine: TesseractEngine) throws -> PieceReading {
            var first = try engine.recognize(piece.image, pageSegMode: mode, budgetMs: remaining().ms, tryInverted: wholeFrame)
            var turned: PixImage?
            // Leptonica leaned to upside down, too weakly to turn (capitals fool it): an unsure
            // reading is tried turned too, and the surer one is kept.
            if piece.maybeUpsideDown, !first.timedOut, Self.meanConfidence(first.words) < Self.halfTurnRereadBelow {
                let image = try piece.image.turned(2)
                let rest = remaining().ms
                if rest > 0 {
                    let second = try engine.recognize(image, pageSegMode: mode, budgetMs: rest, tryInverted: wholeFrame)
                    if !second.timedOut, Self.meanConfidence(second.words) > Self.meanConfidence(first.words) + Self.halfTurnMargin {
                        first = second
                        turned = image
                    }
                }
            }
            return PieceReading(words: first.words, turned: turned, cut: first.timedOut)
        }
        var readings: [PieceReading?] = Array(repeating: nil, count: pieces.count)
        if let helper = helperStart, pieces.count >= 2 {
            // A scene's pieces on two engines at once, the biggest first so that both finish
            // together (no retry on scenes, so nothing else is shared).
            let sizes = pieces.map { $0.image.width * $0.image.height }
            let order = sizes.indices.sorted { sizes[$0] > sizes[$1] }
            nonisolated(unsafe) let all = pieces
            nonisolated(unsafe) let first = reader
            // Worker 1 waits for the second engine on its own thread, while worker 0 reads.
            let outcomes = ParallelWork.map(count: order.count, workers: 2) { w, i -> Result<PieceReading?, Error>? in
                guard let engine = w == 0 ? first : try? helper.engine() else { return nil }
                return Result {
                    guard remaining().ms > 0 else { return nil }
                    return try readPiece(all[order[i]], with: engine)
                }
            }
            for (i, outcome) in zip(order, outcomes) {
                if let outcome {
                    readings[i] = try outcome.get()
                } else {
                    // The second engine did not start: the first reads what it would have, and the next photo tries again.
                    helperSceneEngine = nil
                    if remaining().ms > 0 { readings[i] = try readPiece(pieces[i], with: reader) }
                }
            }
        } else {
            for (i, piece) in pieces.enumerated() {
                guard remaining().ms > 0 else { break }
                var reading = try readPiece(piece, with: reader)
                if retry, !reading.cut {
                    // A retry needs time to finish: with less than a second left (counted once the
                    // shared engine is ours), `retryUnsurePage` keeps the first reading.
                    (reading.words, reading.cut) = try retryUnsurePage(reading.words, in: reading.turned ?? piece.image,
                                                                       budgetMs: { remaining().ms },
                                                                       waited: { waitedMs += $0 })
                }
                readings[i] = reading
            }
        }
        for (var piece, reading) in zip(pieces, readings) {
            guard let reading else {
                // No time was left for this piece.
                if remaining().byDeadline { outOfTime = true } else { timedOut = true }
                continue
            }
            if let turned = reading.turned {
                piece.map.append(.quarterTurns(2, width: piece.image.width, height: piece.image.height))
                piece.image = turned
                if !steps.contains(Self.readBothWaysStep) { steps.append(Self.readBothWaysStep) }
            }
            // A reading the deadline stopped is a burst out of time, not a hard photo.
            if reading.cut, remaining().byDeadline { outOfTime = true } else { timedOut = timedOut || reading.cut }
            let width = piece.image.width, height = piece.image.height
            let words = Self.compactLines(reading.words).map { w in
                // Clamp: Tesseract can report a box one pixel past the edge.
                let x = min(max(0, w.left), width), y = min(max(0, w.top), height)
                let r = min(max(x, w.right), width), b = min(max(y, w.bottom), height)
                let box = BoundingBox(x: x, y: y, width: r - x, height: b - y)
                return OCRWord(text: w.text, confidence: w.confidence, box: box, line: w.line + lineBase,
                               // Only the HTML page's outlines use it: not worked out per word otherwise.
                               photoBox: keepsPreview ? piece.map.photoBox(box, width: loaded.width, height: loaded.height) : nil)
            }
            lineBase = (words.map(\.line).max() ?? (lineBase - 1)) + 1
            all += words
        }
        let done = now()
        var result = OCRResult(words: all, steps: steps,
                               preprocessMs: Self.ms(start, prepared_at), ocrMs: Self.ms(prepared_at, done), timedOut: timedOut)
        result.outOfTime = outOfTime
        // Blocks are crops of the photo at its decoded size: their heights are the photo's print.
        let heights = pieces.compactMap(\.textHeight).sorted()
        result.printHeight = heights.isEmpty ? nil : heights[heights.count / 2]
        if keepsPreview { result.preview = try? loaded.preview(maxSide: Self.previewMaxSide) }
        if let dir = debugDir {
            // Every word as read: line, confidence, text (what the parser weighs; `⟨…⟩` in the
            // JSON text marks only that a word was unsure).
            let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let rows = all.map { "\($0.line)\t\(Int($0.confidence.rounded()))\t\($0.text)" }.joined(separator: "\n")
            try? (rows + "\n").write(toFile: URL(fileURLWithPath: dir).appendingPathComponent("\(stem)-words.tsv").path,
                                     atomically: true, encoding: .utf8)
        }
        return result
    }

    /// A reading of an image that may be upside down is tried turned below this mean confidence
    /// (upright labels read 85-95; the sample upside down reads 59).
    static let halfTurnRereadBelow = 75.0

    /// The step listed when a piece was read turned (any block of the photo).
    static let readBothWaysStep = "rotate 180° (read both ways)"

    /// How much surer (mean word confidence) the turned reading must be to replace the first.
    static let halfTurnMargin = 10.0

    /// The whole-photo engine, starting on its own thread unless it was started before.
    private func startFirstEngine(at step: String) -> EngineStart {
        if let engine { return engine }
        let (path, languages, mode) = (dataPath, firstPassLanguages, pageSegMode)
        let e = EngineStart { try TesseractEngine(dataPath: path, languages: languages, pageSegMode: mode) }
        enginesStarted.append(languages.joined(separator: "+") + " at " + step)
        engine = e
        return e
    }

    /// The Latin-script engine for a scene's blocks, starting on its own thread unless it was started before.
    private func startSceneEngine() -> EngineStart {
        if let sceneEngine { return sceneEngine }
        guard let model = sceneModel else { return startFirstEngine(at: "blocks") }
        let e = Self.startLatinEngine(model, in: dataPath)
        enginesStarted.append(model + " at blocks")
        sceneEngine = e
        return e
    }

    /// A Latin-script engine for scenes, starting on its own thread: without its word list, the
    /// same reading in a quarter of the memory (see `TessData.withoutWordList`).
    private static func startLatinEngine(_ model: String, in path: String) -> EngineStart {
        EngineStart {
            try TesseractEngine(dataPath: path, languages: [model], pageSegMode: blockPageSegMode,
                                model: TessData.withoutWordList(path: TessData.file(model, in: path)))
        }
    }

    /// The second Latin-script engine (`helperSceneEngine`), starting on its own thread unless it was started before.
    private func startHelperSceneEngine() -> EngineStart? {
        if let helperSceneEngine { return helperSceneEngine }
        guard let model = sceneModel else { return nil }
        let e = Self.startLatinEngine(model, in: dataPath)
        enginesStarted.append(model + " at blocks (second)")
        helperSceneEngine = e
        return e
    }

    /// Waits for a started engine; one that failed to start is forgotten, so the next photo tries again.
    private func engine(_ start: EngineStart, scene: Bool) throws -> TesseractEngine {
        do {
            return try start.engine()
        } catch {
            if scene { sceneEngine = nil } else { engine = nil }
            throw error
        }
    }

    /// A photo, or one text block cut from it, prepared for recognition.
    private typealias Piece = (image: PixImage, steps: [String], map: PhotoMap, maybeUpsideDown: Bool, textHeight: Double?)

    /// What recognition made of one piece: its words, the piece turned when it read better
    /// upside down, and whether its reading was cut short.
    private struct PieceReading {
        var words: [RecognizedWord]
        var turned: PixImage?
        var cut: Bool
    }

    private func prepare(_ image: PixImage) throws -> PreprocessedImage {
        do {
            return try Preprocessor.run(image, options: options)
        } catch let error as any ClassifiedError {
            throw error
        } catch {
            throw ImageError.notPrepared(detail: "\(error)")
        }
    }

    /// Reads several photos in parallel, one engine per core (at most `maxParallel`),
    /// results in input order. Extra engines start on the first call that needs them.
    public func read(imagesAt paths: [String]) -> [Result<OCRResult, Error>] {
        all(paths) { _ in nil }
    }

    /// Reads several photos in parallel as above, each result handed on as soon as it and the
    /// photos before it are read (a batch prints as it goes).
    public func read(imagesAt paths: [String], ahead: Int, each: (Int, Result<OCRResult, Error>) -> Void) {
        read(imagesAt: paths, ahead: ahead, deadline: { _ in nil }, each: each)
    }

    /// The burst's frames on every core: the first without a deadline, the others until
    /// `seconds` from now.
    public func read(burstAt paths: [String], within seconds: Double?) -> [Result<OCRResult, Error>] {
        guard let seconds else { return read(imagesAt: paths) }
        // At most a day: a bigger number cannot overflow the clock and means no limit anyway.
        let deadline = now().uptimeNanoseconds + UInt64(min(max(0, seconds), 86_400) * 1e9)
        return all(paths) { $0 == 0 ? nil : deadline }
    }

    /// Every photo's result at once (no window: all may be read before the first is taken).
    private func all(_ paths: [String], deadline: @escaping @Sendable (Int) -> UInt64?) -> [Result<OCRResult, Error>] {
        var results: [Result<OCRResult, Error>] = []
        results.reserveCapacity(paths.count)
        read(imagesAt: paths, ahead: paths.count, deadline: deadline) { _, r in results.append(r) }
        return results
    }

    /// Photos on as many cores as there are engines for, handed on in input order; photo `i`
    /// stops at `deadline(i)`.
    private func read(imagesAt paths: [String], ahead: Int, deadline: @escaping @Sendable (Int) -> UInt64?,
                      each: (Int, Result<OCRResult, Error>) -> Void) {
        let all = readers(for: paths.count)
        guard all.count > 1 else {
            // One photo at a time: its blocks may use the cores.
            for i in paths.indices { each(i, Result { try read(imageAt: paths[i], until: deadline(i), blockWorkers: aloneBlockWorkers) }) }
            return
        }
        // Each reader is used by exactly one worker thread.
        nonisolated(unsafe) let readers = all
        // Each worker takes the next unread photo, so a slow photo does not hold up the rest.
        ParallelWork.forEachInOrder(count: paths.count, workers: readers.count, ahead: ahead, { w, i in
            Result { try readers[w].read(imageAt: paths[i], until: deadline(i)) }
        }, each: each)
    }

    /// This reader and the twins that `count` photos can use, one per core (at most `maxParallel`);
    /// twins start on the first call that needs them.
    private func readers(for count: Int) -> [TesseractLabelReader] {
        let workers = min(count, max(1, parallelism), Self.maxParallel)
        guard workers > 1 else { return [self] }
        while twins.count < workers - 1 {
            guard let twin = try? TesseractLabelReader(
                languages: requestedLanguages, dataPath: dataPath, options: options,
                retryBelowConfidence: retryBelowConfidence, pageSegMode: pageSegMode, budgetMs: budgetMs,
                sharing: retryEngine) else { break }
            twins.append(twin)
        }
        for twin in twins { twin.keepsPreview = keepsPreview; twin.now = now }
        return [self] + twins.prefix(workers - 1)
    }

    /// Re-reads the page when the first pass was unsure, with English and the languages that
    /// reading shows (`retryLanguages`), keeping whichever reading is more confident.
    ///
    /// Labels mix languages ("Zutaten", "Säuerungsmittel") and the English
    /// model guesses at words it does not know, with low confidence; a low page
    /// mean is the cheap signal that the other models are worth their cost.
    /// (Re-reading only the unsure lines, one line at a time, measured worse:
    /// the single-line mode loses the page's context.)
    ///
    /// `waited` is told how long the shared engine kept this page waiting (another photo of
    /// the batch had it, or it was starting), before `budgetMs` tells the time left (nil: no limit); with less
    /// than a second left the first reading is kept.
    func retryUnsurePage(_ words: [RecognizedWord], in image: PixImage, budgetMs: (() -> Int)? = nil,
                         waited: (Double) -> Void = { _ in }) throws -> (words: [RecognizedWord], timedOut: Bool) {
        let mean = Self.meanConfidence(words)
        guard mean < retryBelowConfidence, let languages = retryLanguages(for: words) else { return (words, false) }
        let asked = now()
        let again = try retryEngine.use(languages) { engine -> (words: [RecognizedWord], timedOut: Bool)? in
            waited(Self.ms(asked, now()))
            let left = budgetMs?()
            if let left, left < 1_000 { return nil }
            return try engine.recognize(image, budgetMs: left)
        }
        // A retry cut short is only a part of the page: keep the complete first reading.
        guard let again, !again.timedOut else { return (words, false) }
        return (Self.meanConfidence(again.words) > mean ? again.words : words, false)
    }

    /// The languages to re-read an unsure English reading with: English and the other label
    /// languages it shows (`LabelLanguages.guess`); every language when it shows none (or
    /// only languages not installed); nil, no second reading, when it shows English alone.
    func retryLanguages(for words: [RecognizedWord]) -> [String]? {
        let shown = LabelLanguages.guess(words.map { ($0.text, $0.confidence) })
        let others = languages.filter { $0 != "eng" && shown.contains($0) }
        if others.isEmpty { return shown.contains("eng") ? nil : languages }
        return languages.filter { $0 == "eng" } + others
    }

    static func meanConfidence(_ words: [RecognizedWord]) -> Double {
        words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    /// Renumbers lines 0, 1, 2… so lines that held no readable word leave no gaps.
    static func compactLines(_ words: [RecognizedWord]) -> [RecognizedWord] {
        var map: [Int: Int] = [:]
        return words.map { w in
            var w = w
            if let n = map[w.line] { w.line = n } else { let n = map.count; map[w.line] = n; w.line = n }
            return w
        }
    }

    static func ms(_ a: DispatchTime, _ b: DispatchTime) -> Double {
        Double(b.uptimeNanoseconds - a.uptimeNanoseconds) / 1_000_000
    }
}

/// An engine starting on a thread of its own, so the caller can decode and preprocess the
/// photo meanwhile. Whoever waits for it (`engine()`) is its one user from then on: the
/// starting thread only builds it and hands it over.
final class EngineStart: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once by the starting thread before `done` is left; read only after waiting.
    private var outcome: Result<TesseractEngine, Error> = .failure(OCRError.notRead)

    init(_ start: @escaping @Sendable () throws -> TesseractEngine) {
        done.enter()
        let thread = Thread { [self] in
            outcome = Result { try start() }
            done.leave()
        }
        thread.start()
    }

    /// Waits until the engine has started; throws the error that stopped it.
    func engine() throws -> TesseractEngine {
        done.wait()
        return try outcome.get()
    }
}

/// The retry engines shared by several readers on several threads, each engine used for one
/// page at a time: few pages need one, so the workers of a batch share them instead of
/// holding their own. An engine is kept for the languages a page asked for (English and one
/// other: about 50 MB; all six: about 130 MB) and used again by the next page that asks for
/// the same. Together they hold no more than `budget` (an engine weighs its languages plus
/// one, about 18 MB a unit): with six languages installed, two workers can each re-read a page
/// in English and one other language at once, while an all-language engine runs alone. To
/// make room, idle engines are freed, the least recently used first, before another starts;
/// a page waits only while the engines in use leave no room.
///
/// Before (one engine, languages swapped in place): a batch of 32 gold photos on two
/// cores started four engines one after the other and its workers waited 0.7 s for them.
final class SharedEngine: @unchecked Sendable {
    private final class Slot {
        let languages: [String]
        var engine: TesseractEngine?  // nil while it starts
        var busy = true
        var lastUsed: UInt64 = 0
        init(_ languages: [String]) { self.languages = languages }
    }

    private let condition = NSCondition()
    private let start: ([String]) throws -> TesseractEngine
    /// What the engines held together may weigh (`weight`).
    let budget: Int
    private var slots: [Slot] = []
    private var starts: [[String]] = []
    private var uses: UInt64 = 0
    /// Told (holding the engines' lock) each time a caller waits for room; tests use it.
    var onWait: (() -> Void)?

    /// `budget`: usually the weight of one engine with every language.
    init(budget: Int, start: @escaping ([String]) throws -> TesseractEngine) {
        self.budget = budget
        self.start = start
    }

    /// An engine's weight against the budget: its languages, plus one for what every engine holds.
    static func weight(_ languages: [String]) -> Int { languages.count + 1 }

    /// Runs `body` with an engine for `languages`, holding it (and starting it if needed) until `body` returns.
    func use<T>(_ languages: [String], _ body: (TesseractEngine) throws -> T) throws -> T {
        let slot = try acquire(languages)
        defer { release(slot) }
        return try body(slot.engine!)
    }

    private func acquire(_ languages: [String]) throws -> Slot {
        condition.lock()
        while true {
            if let idle = slots.first(where: { !$0.busy && $0.languages == languages }) {
                idle.busy = true
                condition.unlock()
                return idle
            }
            let need = Self.weight(languages)
            var weighs = slots.reduce(0) { $0 + Self.weight($1.languages) }
            var freed = false
            if weighs + need > budget {
                for idle in slots.filter({ !$0.busy }).sorted(by: { $0.lastUsed < $1.lastUsed }) where weighs + need > budget {
                    slots.removeAll { $0 === idle }
                    weighs -= Self.weight(idle.languages)
                    freed = true
                }
            }
            // Nothing held at all: even an engine over the budget runs, alone.
            if weighs + need <= budget || slots.isEmpty {
                let slot = Slot(languages)
                slots.append(slot)
                starts.append(languages)
                condition.unlock()
                // The freed engines are gone before the next one loads: the two never share the memory.
                if freed { VisionLibraries.returnFreedMemory() }
                do {
                    slot.engine = try start(languages)
                } catch {
                    condition.lock()
                    slots.removeAll { $0 === slot }
                    condition.broadcast()
                    condition.unlock()
                    throw error
                }
                return slot
            }
            onWait?()
            condition.wait()
        }
    }

    private func release(_ slot: Slot) {
        condition.lock()
        uses += 1
        slot.lastUsed = uses
        slot.busy = false
        condition.broadcast()
        condition.unlock()
    }

    /// How many times an engine was started (tests: once for a whole batch of one language).
    var startCount: Int {
        condition.lock(); defer { condition.unlock() }
        return starts.count
    }

    /// The languages of each engine started, in order.
    var started: [[String]] {
        condition.lock(); defer { condition.unlock() }
        return starts
    }

    /// The languages of each engine held now, in the order they started.
    var held: [[String]] {
        condition.lock(); defer { condition.unlock() }
        return slots.map(\.languages)
    }
}
