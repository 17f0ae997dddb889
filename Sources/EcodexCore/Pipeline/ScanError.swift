/// Why `ScanPipeline` could not give a result for an input.
public enum ScanError: ClassifiedError, Equatable {
    /// The pipeline was built without a text reader (no OCR engine).
    case ocrUnavailable
    /// The pipeline was built without a barcode reader.
    case barcodeReaderUnavailable
    /// A burst with no photos.
    case noPhotos
    /// A burst none of whose photos could be read (and no frame gave its own error).
    case noPhotoReadable
    /// A barcode photo in which no barcode was decoded.
    case noBarcodeInPhoto
    /// Typed digits that are no valid GTIN.
    case notABarcode(String)
    /// Text that is not an E-number.
    case notACode(String)
    /// A valid code the additive store does not know.
    case unknownCode(ECode)
    /// Ingredient text longer than `limit` UTF-8 bytes.
    case textTooLong(bytes: Int, limit: Int)

    public var errorClass: ErrorClass {
        switch self {
        case .ocrUnavailable: .ocr
        case .barcodeReaderUnavailable, .noPhotos, .noPhotoReadable, .noBarcodeInPhoto: .capture
        case .notABarcode, .notACode, .textTooLong: .parse
        case .unknownCode: .lookup
        }
    }

    public var description: String {
        switch self {
        case .ocrUnavailable: "no text reader"
        case .barcodeReaderUnavailable: "no barcode reader"
        case .noPhotos: "no photos given"
        case .noPhotoReadable: "no photo of the burst was read"
        case .noBarcodeInPhoto: "no barcode decoded in the photo"
        case .notABarcode(let s): "not a valid GTIN: \"\(s)\""
        case .notACode(let s): "not an additive code: \"\(s)\""
        case .unknownCode(let c): "\(c) is not in the store"
        case .textTooLong(let bytes, let limit): "text of \(bytes) bytes, limit \(limit)"
        }
    }
}

/// A product no source knows.
public enum ProductError: ClassifiedError, Equatable {
    /// No local list (and, when `searchedOnline`, not Open Food Facts either) has ingredients for `digits`.
    case unknown(digits: String, searchedOnline: Bool)

    public var errorClass: ErrorClass { .lookup }

    public var description: String {
        switch self {
        case .unknown(let digits, let online): "no product \(digits)" + (online ? " locally or online" : " locally")
        }
    }
}
