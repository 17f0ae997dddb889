import EcodexCore

/// Why the OCR engine could not read a photo. Every case is an `ocr_error`.
public enum OCRError: ClassifiedError, Equatable {
    /// Tesseract could not be created at all.
    case engineFailed(detail: String)
    /// Leptonica, Tesseract or ZBar is not installed (or too old): they are loaded when a
    /// photo is first read, not when `scan` starts.
    case librariesMissing(detail: String)
    /// Tesseract could not load `languages` (joined with `+`) from `folder`.
    case languageDataFailed(languages: String, folder: String, code: Int32)
    /// No language was asked for or found in `folder`.
    case noLanguageData(folder: String)
    /// `language`'s `.traineddata` file is not in `folder`.
    case languageMissing(language: String, folder: String)
    /// Recognition failed (not a timeout: a timed-out reading keeps what it read).
    case recognitionFailed(code: Int32)
    /// A photo of several never got its turn (a reader stopped early).
    case notRead

    public var errorClass: ErrorClass { .ocr }

    public var description: String {
        switch self {
        case .engineFailed(let detail): "engine: \(detail)"
        case .librariesMissing(let detail): detail
        case .languageDataFailed(let languages, let folder, let code): "TessBaseAPIInit2(\(languages), \(folder)) returned \(code)"
        case .noLanguageData(let folder): "no language data in \(folder)"
        case .languageMissing(let language, let folder): "searched \(folder)/\(language).traineddata"
        case .recognitionFailed(let code): "TessBaseAPIRecognize returned \(code)"
        case .notRead: "not read"
        }
    }
}
