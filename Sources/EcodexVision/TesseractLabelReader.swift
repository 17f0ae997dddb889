import EcodexCore
import Foundation

/// Reads label photos with Leptonica preprocessing and the Tesseract LSTM engine.
///
/// Each photo is measured (size, text blocks), a `ReadingPlan` is made from the measurements,
/// and the plan is executed on the engines of an `EnginePool`. Engines are started once per
/// instance and reused for every image, so create the reader once.
///
/// With the default languages the reader reads with English alone first and re-reads a page
/// only when the English pass was unsure (`LanguagePlan`).
///
/// Word boxes are in the pixel coordinates of the preprocessed image (after
/// any rescale and deskew listed in `OCRResult.steps`), not of the original photo.
///
/// Recognition is much faster with `OMP_THREAD_LIMIT=1`; loading Tesseract sets it unless
/// the environment already does (`VisionLibraries`, DESIGN "Facts about the platform").
public final class TesseractLabelReader: LabelReader {
    /// The languages used and when a page is read again.
    let languagePlan: LanguagePlan
    /// Every language the reader may use, e.g. `["eng", "deu"]`; the first pass uses `LanguagePlan.firstPass`.
    public var languages: [String] { languagePlan.all }
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

    /// This reader's engines.
    let engines: EnginePool
    /// Engines that read the blocks of one photo at once when it has the cores to itself.
    static let maxBlockWorkers = 2
    /// The engines a photo read alone may use for its blocks: the cores this reader may use, at most `maxBlockWorkers`.
    var aloneBlockWorkers: Int { min(parallelism, Self.maxBlockWorkers) }
    /// `ReadingPlan.secondEngineMinLetters` for this reader (tests lower it to read small scenes on two engines).
    var secondEngineFrom = ReadingPlan.secondEngineMinLetters
    let options: PreprocessOptions
    /// Page segmentation mode of the whole-photo engine (`ReadingPlan.defaultPageSegMode`).
    let pageSegMode: Int32
    /// Time limit for recognising one photo, both passes together. Labels read in well
    /// under a second; a dark, grainy photo can keep Tesseract busy on noise for a
    /// minute (seen on the gold set's hard tier), which no shopper waits for.
    public static let defaultBudgetMs = 8_000
    let budgetMs: Int
    /// The clock a photo's budget is measured on; tests may replace it.
    var now: () -> DispatchTime = { DispatchTime.now() }
    /// The memory budget its recognitions count against, and that may let its idle retry engines
    /// go for a large decode (`PhotoMemory`); tests that count engine starts give a reader its own.
    var memory: PhotoMemory = .shared

    /// Starts Tesseract for `languages` (nil: the installed label languages
    /// among eng, deu, fra, spa, ita, nld) from `dataPath` (nil:
    /// `TESSDATA_PREFIX`, else `/usr/share/tesseract-ocr/5/tessdata`).
    ///
    /// Throws an `OCRError` naming the missing language file and the folder searched.
    public convenience init(languages: [String]? = nil, dataPath: String? = nil, budgetMs: Int = defaultBudgetMs) throws {
        try self.init(languages: languages, dataPath: dataPath, options: PreprocessOptions(), budgetMs: budgetMs)
    }

    init(languages: [String]?, dataPath: String?, options: PreprocessOptions,
         retryBelowConfidence: Double = 75, pageSegMode: Int32 = ReadingPlan.defaultPageSegMode,
         budgetMs: Int = defaultBudgetMs, sharing retryEngine: SharedEngine? = nil) throws {
        self.budgetMs = budgetMs
        self.requestedLanguages = languages
        let folder = TessData.folder(dataPath)
        let plan = LanguagePlan(requested: languages, installed: Self.installedLanguages(dataPath: folder),
                                retryBelowConfidence: retryBelowConfidence)
        try TessData.requireInstalled(plan.all, in: folder)
        self.languagePlan = plan
        self.dataPath = folder
        self.options = options
        self.pageSegMode = pageSegMode
        // Tesseract starts on first use; the files were checked above.
        let sceneModel = languages == nil && options.latinForScenes ? TessData.latinScriptModel(in: folder) : nil
        engines = EnginePool(dataPath: folder, languages: plan, pageSegMode: pageSegMode, sceneModel: sceneModel,
                             sharing: retryEngine)
    }

    /// The label languages (eng, deu, fra, spa, ita, nld) whose `.traineddata` is installed, in that order.
    public static func installedLanguages(dataPath: String? = nil) -> [String] {
        let folder = TessData.folder(dataPath)
        return TessData.labelLanguages.filter { TessData.isInstalled($0, in: folder) }
    }

    /// What the plans of this reader's photos go by.
    var policy: ReadingPolicy {
        ReadingPolicy(findTextBlocks: options.findTextBlocks, hasSceneModel: engines.sceneModel != nil,
                      retryBelowConfidence: languagePlan.retryBelowConfidence, secondEngineMinLetters: secondEngineFrom)
    }

    /// Pages whose mean word confidence is below this are read again (`retryUnsurePage`); 0 turns retries off.
    var retryBelowConfidence: Double { languagePlan.retryBelowConfidence }
    /// The engines for unsure pages, shared with the twins.
    var retryEngine: SharedEngine { engines.retry }
    /// Every engine this reader started, in order, with the step that started it (`EnginePool.started`).
    var enginesStarted: [String] { engines.started }

    /// Loads, preprocesses and recognises one photo.
    ///
    /// Throws a `capture_error` (`InputFileError`, `ImageError`) when the file is missing,
    /// not an image, damaged or absurdly large, and an `OCRError` when the engine fails.
    public func read(imageAt path: String) throws -> OCRResult {
        try read(imageAt: path, until: nil, blockWorkers: aloneBlockWorkers)
    }

    /// The first stage of `read(imageAt:)`: decodes, measures, plans and preprocesses the photo
    /// while its engine starts (`ReadingStages`).
    public func prepare(imageAt path: String) throws -> any PreparedPhoto {
        try prepare(path, blockWorkers: aloneBlockWorkers)
    }

    /// The second stage: recognises a photo this reader prepared (any other photo is read whole).
    public func recognize(_ photo: any PreparedPhoto) throws -> OCRResult {
        guard let photo = photo as? PreparedLabelPhoto, photo.reader === self else { return try read(imageAt: photo.path) }
        return try recognize(photo, until: nil)
    }

    /// `read(imageAt:)`, stopping at `deadline` (`DispatchTime` nanoseconds) as well as at its
    /// own budget: what was read by then is kept and marked `outOfTime`; a photo whose turn
    /// comes after the deadline is not decoded at all (an empty reading, `outOfTime`).
    ///
    /// `blockWorkers`: engines that may read the blocks of one scene at once (2 when this photo
    /// has the cores to itself, 1 when other photos of a batch are read beside it).
    func read(imageAt path: String, until deadline: UInt64?, blockWorkers: Int = 1) throws -> OCRResult {
        if let deadline, now().uptimeNanoseconds >= deadline {
            var none = OCRResult(words: [], steps: [], preprocessMs: 0, ocrMs: 0)
            none.outOfTime = true
            return none
        }
        return try recognize(prepare(path, blockWorkers: blockWorkers), until: deadline)
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

    /// Every photo's result at once (no window: all may be read before the first is taken).
    func all(_ paths: [String], deadline: @escaping @Sendable (Int) -> UInt64?) -> [Result<OCRResult, Error>] {
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
        for twin in twins { twin.keepsPreview = keepsPreview; twin.now = now; twin.memory = memory }
        return [self] + twins.prefix(workers - 1)
    }

    /// Re-reads the page when the first pass was unsure, with English and the languages that
    /// reading shows (`LanguagePlan.retryLanguages`), keeping whichever reading is more confident.
    ///
    /// Labels mix languages ("Zutaten", "Säuerungsmittel") and the English
    /// model guesses at words it does not know, with low confidence; a low page
    /// mean is the cheap signal that the other models are worth their cost.
    /// (Re-reading only the unsure lines, one line at a time, measured worse:
    /// the single-line mode loses the page's context.)
    ///
    /// `waited` is told how long the shared engine kept this page waiting (another photo of
    /// the batch had it, or it was starting), before `budgetMs` tells the time left (nil: no limit); with less
    /// than `ReadingPlan.minRetryMs` left the first reading is kept.
    func retryUnsurePage(_ words: [RecognizedWord], in image: PixImage, budgetMs: (() -> Int)? = nil,
                         waited: (Double) -> Void = { _ in }) throws -> (words: [RecognizedWord], timedOut: Bool) {
        guard languagePlan.retries(words), let languages = languagePlan.retryLanguages(for: words) else { return (words, false) }
        let mean = ReadingPlan.meanConfidence(words)
        let asked = now()
        let again = try retryEngine.use(languages) { engine -> (words: [RecognizedWord], timedOut: Bool)? in
            waited(Self.ms(asked, now()))
            let left = budgetMs?()
            if let left, left < ReadingPlan.minRetryMs { return nil }
            return try engine.recognize(image, budgetMs: left)
        }
        // A retry cut short is only a part of the page: keep the complete first reading.
        guard let again, !again.timedOut else { return (words, false) }
        return (ReadingPlan.meanConfidence(again.words) > mean ? again.words : words, false)
    }

    static func ms(_ a: DispatchTime, _ b: DispatchTime) -> Double {
        Double(b.uptimeNanoseconds - a.uptimeNanoseconds) / 1_000_000
    }
}
