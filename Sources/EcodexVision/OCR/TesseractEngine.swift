import EcodexCore
import Foundation
internal import CLeptonica
internal import CTesseract

/// One word as the engine returned it, before it becomes an `OCRWord`.
struct RecognizedWord {
    var text: String
    var confidence: Double
    var left: Int, top: Int, right: Int, bottom: Int
    var line: Int
}

/// Owns one `TessBaseAPI`: initialised once, reused for every image, ended in `deinit`.
///
/// Tesseract keeps per-image state between `SetImage` and `Clear`; callers
/// use one engine from one thread at a time (the class is not `Sendable`).
final class TesseractEngine {
    private let handle: OpaquePointer
    let languages: [String]
    /// The page segmentation mode a recognition uses unless it asks for another.
    let pageSegMode: Int32

    /// Starts the LSTM engine for `languages` (already checked to exist in `dataPath`).
    /// With `model`, the engine starts from those bytes (one model, named by `languages`)
    /// instead of reading the files in `dataPath`.
    init(dataPath: String, languages: [String], pageSegMode: Int32, model: [UInt8]? = nil) throws {
        try VisionLibraries.ensure()
        guard let handle = TessBaseAPICreate() else {
            throw OCRError.engineFailed(detail: "TessBaseAPICreate returned NULL")
        }
        self.handle = handle
        self.languages = languages
        self.pageSegMode = pageSegMode
        // Tesseract writes its progress and warnings ("Estimating resolution…")
        // to stderr unless told to write them somewhere else.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        let joined = languages.joined(separator: "+")
        // OEM_LSTM_ONLY: the Debian "fast" models carry no legacy classifier.
        let rc: Int32
        if let model {
            rc = model.withUnsafeBufferPointer { buf in
                buf.withMemoryRebound(to: CChar.self) {
                    TessBaseAPIInit5(handle, $0.baseAddress, Int32(clamping: $0.count), joined, OEM_LSTM_ONLY,
                                     nil, 0, nil, nil, 0, 0)
                }
            }
        } else {
            rc = TessBaseAPIInit2(handle, dataPath, joined, OEM_LSTM_ONLY)
        }
        guard rc == 0 else {
            TessBaseAPIDelete(handle)
            throw OCRError.languageDataFailed(languages: joined, folder: dataPath, code: rc)
        }
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        // Preprocessing already turns light-on-dark text around; Tesseract's own per-line inversion
        // retry then only costs time. Whole camera frames ask for it (`recognize`).
        _ = TessBaseAPISetVariable(handle, "tessedit_do_invert", "0")
        // Ingredient lists carry no prices, but the LSTM often reads a printed
        // "E" as "£" or "€" (E442 → £442). Forbidding both makes it take its next guess, usually "E".
        _ = TessBaseAPISetVariable(handle, "tessedit_char_blacklist", "£€")
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(pageSegMode)))
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Recognises `image` (or only `rect` of it) and returns its words in reading order.
    ///
    /// With `budgetMs`, Tesseract stops recognising once that much time has passed and
    /// the words read so far are returned; `timedOut` tells whether it stopped early.
    ///
    /// With `tryInverted`, Tesseract also reads each unsure line inverted (its own
    /// `tessedit_do_invert`, off otherwise): for a whole camera frame, where white print on a
    /// coloured panel and dark print on paper share one image and no single inversion fits.
    func recognize(_ image: PixImage, rect: (x: Int, y: Int, width: Int, height: Int)? = nil,
                   pageSegMode: Int32? = nil, budgetMs: Int? = nil,
                   tryInverted: Bool = false) throws -> (words: [RecognizedWord], timedOut: Bool) {
        defer { TessBaseAPIClear(handle) }
        if tryInverted { _ = TessBaseAPISetVariable(handle, "tessedit_do_invert", "1") }
        defer { if tryInverted { _ = TessBaseAPISetVariable(handle, "tessedit_do_invert", "0") } }
        TessBaseAPISetImage2(handle, image.pointer)
        // Our images carry no trustworthy DPI; a fixed value stops Tesseract
        // guessing one from the pixel size and keeps its size filters stable.
        TessBaseAPISetSourceResolution(handle, 300)
        if let rect {
            TessBaseAPISetRectangle(handle, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        }
        if let pageSegMode, pageSegMode != self.pageSegMode {
            TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(pageSegMode)))
        }
        defer {
            if let pageSegMode, pageSegMode != self.pageSegMode {
                TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(self.pageSegMode)))
            }
        }
        // The clock starts before the deadline is set, so a pass the deadline cut short
        // always measures at least the budget.
        let start = DispatchTime.now().uptimeNanoseconds
        let monitor = budgetMs.map { ms -> OpaquePointer? in
            let m = TessMonitorCreate()
            TessMonitorSetDeadlineMSecs(m, Int32(clamping: ms))
            return m
        } ?? nil
        defer { if let monitor { TessMonitorDelete(monitor) } }
        let rc = TessBaseAPIRecognize(handle, monitor)
        let elapsedMs = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        let timedOut = budgetMs.map { elapsedMs >= $0 } ?? false
        // Past its deadline Tesseract stops and reports failure, but keeps what it read.
        guard rc == 0 || timedOut else {
            throw OCRError.recognitionFailed(code: rc)
        }
        guard let iterator = TessBaseAPIGetIterator(handle) else { return ([], timedOut) }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)

        var words: [RecognizedWord] = []
        var line = -1
        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 || line < 0 { line += 1 }
            guard let cText = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            defer { TessDeleteText(cText) }
            let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            _ = TessPageIteratorBoundingBox(page, RIL_WORD, &l, &t, &r, &b)
            let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD))
            words.append(RecognizedWord(text: text, confidence: min(100, max(0, confidence)),
                                        left: Int(l), top: Int(t), right: Int(r), bottom: Int(b), line: line))
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return (words, timedOut)
    }
}
