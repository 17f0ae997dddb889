import EcodexCore
import Foundation

/// Reads label photos with Leptonica preprocessing and the Tesseract LSTM engine.
///
/// One engine is started per instance and reused for every image, so create
/// the reader once. Word boxes are in the pixel coordinates of the
/// preprocessed image (after any rescale and deskew listed in
/// `OCRResult.steps`), not of the original photo.
///
/// Recognition is much faster when `OMP_THREAD_LIMIT=1` is in the
/// environment before the process starts (see DESIGN "Facts about the platform").
public final class TesseractLabelReader: LabelReader {
    /// The languages the engine was started with, e.g. `["eng", "deu"]`.
    public let languages: [String]
    /// The folder the language files were loaded from.
    public let dataPath: String

    private let engine: TesseractEngine
    let options: PreprocessOptions
    /// Page segmentation mode: 6 ("one uniform block of text") read the most
    /// words on the gold-set photos, which are crops of one ingredient panel.
    static let pageSegMode: Int32 = 6

    /// Starts Tesseract for `languages` (nil: the installed label languages
    /// among eng, deu, fra, spa, ita, nld) from `dataPath` (nil:
    /// `TESSDATA_PREFIX`, else `/usr/share/tesseract-ocr/5/tessdata`).
    ///
    /// Throws `EcodexError.ocr` naming the missing language file and the folder searched.
    public convenience init(languages: [String]? = nil, dataPath: String? = nil) throws {
        try self.init(languages: languages, dataPath: dataPath, options: PreprocessOptions())
    }

    init(languages: [String]?, dataPath: String?, options: PreprocessOptions) throws {
        let folder = TessData.folder(dataPath)
        let chosen = languages ?? Self.installedLanguages(dataPath: folder)
        try TessData.requireInstalled(chosen, in: folder)
        self.languages = chosen
        self.dataPath = folder
        self.options = options
        self.engine = try TesseractEngine(dataPath: folder, languages: chosen, pageSegMode: Self.pageSegMode)
    }

    /// The label languages (eng, deu, fra, spa, ita, nld) whose `.traineddata` is installed, in that order.
    public static func installedLanguages(dataPath: String? = nil) -> [String] {
        let folder = TessData.folder(dataPath)
        return TessData.labelLanguages.filter { TessData.isInstalled($0, in: folder) }
    }

    /// Loads, preprocesses and recognises one photo.
    ///
    /// Throws `EcodexError.capture` when the file is missing, not an image,
    /// damaged or absurdly large, and `EcodexError.ocr` when the engine fails.
    public func read(imageAt path: String) throws -> OCRResult {
        let start = DispatchTime.now()
        let loaded = try ImageLoader.load(path)
        let prepared: PreprocessedImage
        do {
            prepared = try Preprocessor.run(loaded, options: options)
        } catch let error as EcodexError {
            throw error
        } catch {
            throw EcodexError.capture("This photo could not be prepared for reading. Take the photo again or type the ingredients.",
                                      detail: "\(error)")
        }
        let prepared_at = DispatchTime.now()
        let raw = try engine.recognize(prepared.image)
        let done = DispatchTime.now()

        let width = prepared.image.width, height = prepared.image.height
        let words = Self.compactLines(raw).map { w in
            // Clamp: Tesseract can report a box one pixel past the edge.
            let x = min(max(0, w.left), width), y = min(max(0, w.top), height)
            let r = min(max(x, w.right), width), b = min(max(y, w.bottom), height)
            return OCRWord(text: w.text, confidence: w.confidence,
                           box: BoundingBox(x: x, y: y, width: r - x, height: b - y), line: w.line)
        }
        return OCRResult(words: words, steps: prepared.steps,
                         preprocessMs: Self.ms(start, prepared_at), ocrMs: Self.ms(prepared_at, done))
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
