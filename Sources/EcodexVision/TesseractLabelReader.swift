import EcodexCore

/// PLACEHOLDER until imaging and OCR land.
public final class TesseractLabelReader: LabelReader {
    public init(languages: [String]? = nil) throws {}
    public func read(imageAt path: String) throws -> OCRResult {
        throw EcodexError.ocr("OCR is not built yet.")
    }
}
