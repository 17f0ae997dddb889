import EcodexCore
import Foundation

/// A photo, or one text block cut from it, prepared for recognition.
struct Piece {
    var image: PixImage
    var steps: [String]
    /// Where the piece's pixels came from in the decoded photo.
    var map: PhotoMap
    var maybeUpsideDown: Bool
    /// The print's height in the photo, pixels (`PreprocessedImage.textHeight`).
    var textHeight: Double?
    /// Quarter turns preprocessing applied (`PreprocessedImage.quarterTurns`).
    var quarterTurns = 0
}

/// What recognition made of one piece: its words, the piece turned (`turns` quarter turns) when
/// it read better so, and whether its reading was cut short.
struct PieceReading {
    var words: [RecognizedWord]
    var turned: PixImage?
    var cut: Bool
    var turns = 2
}

/// A photo decoded, measured, planned and preprocessed by a `TesseractLabelReader`, the engine
/// of its plan starting meanwhile: what the reader's `recognize` reads.
final class PreparedLabelPhoto: PreparedPhoto {
    let path: String
    /// The reader that prepared it: the engines were started in its pool.
    let reader: TesseractLabelReader
    let loaded: PixImage
    let plan: ReadingPlan
    let pieces: [Piece]
    /// The steps the result lists: the blocks cut, then the first piece's preprocessing.
    let steps: [String]
    /// The engine of the plan, and the second engine when the plan has one (both may still be starting).
    let engine: EngineStart
    let helper: EngineStart?
    /// When preparation began and ended (`TesseractLabelReader.now`).
    let start: DispatchTime
    let preparedAt: DispatchTime

    init(path: String, reader: TesseractLabelReader, loaded: PixImage, plan: ReadingPlan, pieces: [Piece],
         steps: [String], engine: EngineStart, helper: EngineStart?, start: DispatchTime, preparedAt: DispatchTime) {
        self.path = path; self.reader = reader; self.loaded = loaded; self.plan = plan; self.pieces = pieces
        self.steps = steps; self.engine = engine; self.helper = helper; self.start = start; self.preparedAt = preparedAt
    }
}

/// The two stages of reading a photo: `prepare` (decode, measure, plan, preprocess) and
/// `recognize` (execute the plan on the pool's engines).
extension TesseractLabelReader {
    /// Decodes the photo, finds its text blocks, plans its reading and preprocesses each piece.
    /// The plan's engine starts on another thread as soon as it is known (from the header when
    /// the photo's size settles it); on failure every start is waited for, so none outlives it.
    func prepare(_ path: String, blockWorkers: Int) throws -> PreparedLabelPhoto {
        let start = now()
        let policy = self.policy
        var started: EngineStart?
        var helper: EngineStart?
        do {
            let loaded = try ImageLoader.load(path) { width, height in
                if ReadingPlan.firstPassFromHeader(width: width, height: height, policy: policy) {
                    started = engines.startFirstPass(at: "header")
                }
            }
            let blocks = options.findTextBlocks ? TextRegions.find(loaded) : []
            let plan = ReadingPlan(PhotoMeasurements(width: loaded.width, height: loaded.height, blocks: blocks),
                                   policy: policy, cores: blockWorkers)
            let engine = started ?? engines.start(plan.engine)
            started = engine
            // The second engine starts now, while the blocks are prepared.
            helper = plan.secondEngine ? engines.startHelper() : nil
            let (pieces, steps) = try cut(loaded, plan: plan)
            ReaderDebug.dumpPieces(of: path, loaded: loaded, pieces: pieces)
            return PreparedLabelPhoto(path: path, reader: self, loaded: loaded, plan: plan, pieces: pieces, steps: steps,
                                      engine: engine, helper: helper, start: start, preparedAt: now())
        } catch {
            _ = try? helper?.engine()
            _ = try? started?.engine()
            throw error
        }
    }

    /// The pieces the plan reads (the photo whole, or its blocks in reading order), preprocessed,
    /// and the steps the result lists.
    private func cut(_ loaded: PixImage, plan: ReadingPlan) throws -> (pieces: [Piece], steps: [String]) {
        guard plan.kind == .blocks else {
            let prepared = try preprocess(loaded)
            return ([Piece(image: prepared.image, steps: prepared.steps, map: prepared.map,
                           maybeUpsideDown: prepared.maybeUpsideDown, textHeight: prepared.textHeight,
                           quarterTurns: prepared.quarterTurns)], prepared.steps)
        }
        var pieces: [Piece] = []
        for b in plan.blocks {
            let crop = try loaded.cropped(x: b.x, y: b.y, width: b.width, height: b.height)
            let prepared = try preprocess(crop)
            var cut = PhotoMap()
            cut.append(.crop(x: b.x, y: b.y))
            pieces.append(Piece(image: prepared.image, steps: prepared.steps, map: prepared.map.after(cut),
                                maybeUpsideDown: prepared.maybeUpsideDown, textHeight: prepared.textHeight,
                                quarterTurns: prepared.quarterTurns))
        }
        let steps = [String(format: "text blocks: %d of %.0f%% of the photo", plan.blocks.count,
                            100 * Double(plan.blocks.reduce(0) { $0 + $1.width * $1.height }) / Double(loaded.pixelCount))]
            + (pieces.first?.steps ?? [])
        return (pieces, steps)
    }

    private func preprocess(_ image: PixImage) throws -> PreprocessedImage {
        do {
            return try Preprocessor.run(image, options: options)
        } catch let error as any ClassifiedError {
            throw error
        } catch {
            throw ImageError.notPrepared(detail: "\(error)")
        }
    }

    /// Reads the pieces of a prepared photo as its plan says, stopping at `deadline` (nil: its
    /// budget alone); every engine it started is waited for before returning. A photo of a batch
    /// waits for room in `PhotoMemory` first; that wait is not taken from its budget.
    func recognize(_ photo: PreparedLabelPhoto, until deadline: UInt64?) throws -> OCRResult {
        defer {
            _ = try? photo.helper?.engine()
            _ = try? photo.engine.engine()
        }
        let asked = now()
        memory.register(retryEngine)
        return try memory.holding(PhotoMemory.recognitionBytes, trim: true) {
            try recognize(photo, until: deadline, waitedMs: Self.ms(asked, now()))
        }
    }

    private func recognize(_ photo: PreparedLabelPhoto, until deadline: UInt64?, waitedMs: Double) throws -> OCRResult {
        var time = TimeLeft(budgetMs: budgetMs, from: photo.preparedAt.uptimeNanoseconds, deadline: deadline)
        time.waitedMs = waitedMs
        let remaining = { time.at(self.now().uptimeNanoseconds) }
        let plan = photo.plan
        let engine = try engines.wait(photo.engine, scene: plan.scene)
        let mode = plan.pageSegMode(printHeight: photo.pieces.first?.textHeight)
        let readPiece = { (piece: Piece, engine: TesseractEngine) throws -> PieceReading in
            var reading = try Self.read(piece, with: engine, mode: mode, tryInverted: plan.tryInverted,
                                        timeLeft: { remaining().ms })
            if plan.retryLines, !reading.cut {
                reading.words = try Self.retryUnsureLines(reading.words, in: reading.turned ?? piece.image, with: engine,
                                                          tryInverted: plan.tryInverted, timeLeft: { remaining().ms })
            }
            return reading
        }
        var readings: [PieceReading?] = Array(repeating: nil, count: photo.pieces.count)
        if let helper = photo.helper, photo.pieces.count >= 2 {
            readings = try readOnTwoEngines(photo.pieces, engine, helper, remaining: remaining, readPiece: readPiece)
        } else {
            for (i, piece) in photo.pieces.enumerated() {
                guard remaining().ms > 0 else { break }
                var reading = try readPiece(piece, engine)
                if plan.retry, !reading.cut {
                    // A retry needs time to finish: with too little left (counted once the
                    // shared engine is ours), `retryUnsurePage` keeps the first reading.
                    (reading.words, reading.cut) = try retryUnsurePage(reading.words, in: reading.turned ?? piece.image,
                                                                       budgetMs: { remaining().ms },
                                                                       waited: { time.waitedMs += $0 })
                }
                readings[i] = reading
            }
        }
        let (words, steps, timedOut, outOfTime) = assemble(photo, readings, remaining: remaining)
        var result = OCRResult(words: words, steps: steps, preprocessMs: Self.ms(photo.start, photo.preparedAt),
                               ocrMs: Self.ms(photo.preparedAt, now()), timedOut: timedOut)
        result.outOfTime = outOfTime
        // Blocks are crops of the photo at its decoded size: their heights are the photo's print.
        let heights = photo.pieces.compactMap(\.textHeight).sorted()
        result.printHeight = heights.isEmpty ? nil : heights[heights.count / 2]
        result.capture = CaptureMeasure.measure(photo.loaded, words: words, printHeight: result.printHeight)
        if keepsPreview { result.preview = try? photo.loaded.preview(maxSide: Self.previewMaxSide) }
        ReaderDebug.dumpWords(of: photo.path, words)
        return result
    }

    /// One piece read by `engine` in `mode`. Leptonica leaned to upside down, too weakly to
    /// turn it (capitals fool it): an unsure reading is tried turned too, and the surer one kept.
    private static func read(_ piece: Piece, with engine: TesseractEngine, mode: Int32?, tryInverted: Bool,
                             timeLeft: () -> Int) throws -> PieceReading {
        var first = try engine.recognize(piece.image, pageSegMode: mode, budgetMs: timeLeft(), tryInverted: tryInverted)
        if let upright = try checkQuarterTurn(piece, first, with: engine, mode: mode, tryInverted: tryInverted,
                                              timeLeft: timeLeft) {
            return upright
        }
        var turned: PixImage?
        if ReadingPlan.triesHalfTurn(maybeUpsideDown: piece.maybeUpsideDown, first: first.words, cut: first.timedOut) {
            let image = try piece.image.turned(2)
            let rest = timeLeft()
            if rest > 0 {
                let second = try engine.recognize(image, pageSegMode: mode, budgetMs: rest, tryInverted: tryInverted)
                if ReadingPlan.keepsTurned(second.words, cut: second.timedOut, over: first.words) {
                    first = second
                    turned = image
                }
            }
        }
        return PieceReading(words: first.words, turned: turned, cut: first.timedOut)
    }

    /// A scene's pieces on two engines at once, the biggest first so that both finish together
    /// (no retry on scenes, so nothing else is shared). Worker 1 waits for the second engine on
    /// its own thread, while worker 0 reads.
    private func readOnTwoEngines(_ pieces: [Piece], _ first: TesseractEngine, _ helper: EngineStart,
                                  remaining: () -> (ms: Int, byDeadline: Bool),
                                  readPiece: (Piece, TesseractEngine) throws -> PieceReading) throws -> [PieceReading?] {
        var readings: [PieceReading?] = Array(repeating: nil, count: pieces.count)
        let sizes = pieces.map { $0.image.width * $0.image.height }
        let order = sizes.indices.sorted { sizes[$0] > sizes[$1] }
        nonisolated(unsafe) let all = pieces
        nonisolated(unsafe) let engine = first
        let outcomes = ParallelWork.map(count: order.count, workers: 2) { w, i -> Result<PieceReading?, Error>? in
            guard let engine = w == 0 ? engine : try? helper.engine() else { return nil }
            return Result {
                guard remaining().ms > 0 else { return nil }
                return try readPiece(all[order[i]], engine)
            }
        }
        for (i, outcome) in zip(order, outcomes) {
            if let outcome {
                readings[i] = try outcome.get()
            } else {
                // The second engine did not start: the first reads what it would have, and the next photo tries again.
                engines.forgetHelper()
                if remaining().ms > 0 { readings[i] = try readPiece(pieces[i], first) }
            }
        }
        return readings
    }

    /// The pieces' words in the photo's reading order, lines numbered on across pieces, with the
    /// steps listed and whether time ran out (the budget: `timedOut`; a burst's deadline: `outOfTime`).
    private func assemble(_ photo: PreparedLabelPhoto, _ readings: [PieceReading?],
                          remaining: () -> (ms: Int, byDeadline: Bool))
        -> (words: [OCRWord], steps: [String], timedOut: Bool, outOfTime: Bool) {
        var all: [OCRWord] = []
        var steps = photo.steps
        var timedOut = false, outOfTime = false
        var lineBase = 0
        for (var piece, reading) in zip(photo.pieces, readings) {
            guard let reading else {
                // No time was left for this piece.
                if remaining().byDeadline { outOfTime = true } else { timedOut = true }
                continue
            }
            if let turned = reading.turned {
                piece.map.append(.quarterTurns(reading.turns, width: piece.image.width, height: piece.image.height))
                piece.image = turned
                let step = reading.turns == 2 ? Self.readBothWaysStep : Self.readAsItCameStep
                if !steps.contains(step) { steps.append(step) }
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
                               // The HTML page's outlines, a burst's alignment and the capture measures use it.
                               photoBox: piece.map.photoBox(box, width: photo.loaded.width, height: photo.loaded.height))
            }
            lineBase = (words.map(\.line).max() ?? (lineBase - 1)) + 1
            all += words
        }
        return (all, steps, timedOut, outOfTime)
    }

    /// The step listed when a piece was read turned (any block of the photo).
    static let readBothWaysStep = "rotate 180° (read both ways)"

    /// Renumbers lines 0, 1, 2… so lines that held no readable word leave no gaps.
    static func compactLines(_ words: [RecognizedWord]) -> [RecognizedWord] {
        var map: [Int: Int] = [:]
        return words.map { w in
            var w = w
            if let n = map[w.line] { w.line = n } else { let n = map.count; map[w.line] = n; w.line = n }
            return w
        }
    }
}
