import EcodexCore

/// Why a photo cannot be used. Every case is a `capture_error`: take the photo again
/// or type the ingredients. (A missing, unreadable or non-regular file is an
/// `InputFileError` of the photo role, also a `capture_error`.)
public enum ImageError: ClassifiedError, Equatable {
    /// The file has no bytes.
    case empty(path: String)
    /// Not a JPEG, PNG, TIFF, WebP, BMP or HEIC/HEIF, or its header cannot be read.
    case notAnImage(path: String, detail: String)
    /// More pixels than `maxPixels`, or a side over `maxSide`.
    case tooLarge(width: Int, height: Int, maxPixels: Int, maxSide: Int)
    /// A side under `minSide` pixels, or longer than `maxAspect` times the other.
    case tooThin(width: Int, height: Int, minSide: Int, maxAspect: Int)
    /// A photo format this machine cannot decode: a HEIC photo without libheif, or coded
    /// with a codec the installed libheif lacks.
    case unsupported(path: String, format: String, detail: String)
    /// A JPEG of more than `maxScans` scans, each a pass over the whole image.
    case tooManyScans(path: String, maxScans: Int)
    /// A progressive (or multi-scan) JPEG whose decoder would hold the coefficients of the whole
    /// image at once, more than the decode budget: at most `maxPixels` with its colour sampling.
    case progressiveTooLarge(width: Int, height: Int, maxPixels: Int)
    /// The decoder failed or reported damage (a truncated JPEG, say).
    case damaged(path: String, detail: String)
    /// Decoded, but preprocessing failed.
    case notPrepared(detail: String)

    public var errorClass: ErrorClass { .capture }

    public var description: String {
        switch self {
        case .empty(let path): "\(path): empty file"
        case .notAnImage(let path, let detail): "\(path): not a readable image: \(detail)"
        case .tooLarge(let w, let h, let maxPixels, let maxSide): "\(w)×\(h) pixels, limit \(maxPixels) pixels and \(maxSide) per side"
        case .tooThin(let w, let h, let minSide, let maxAspect): "\(w)×\(h) pixels, sides at least \(minSide) px, at most 1:\(maxAspect)"
        case .unsupported(let path, let format, let detail): "\(path): \(format) cannot be decoded here: \(detail)"
        case .tooManyScans(let path, let maxScans): "\(path): JPEG of more than \(maxScans) scans"
        case .progressiveTooLarge(let w, let h, let maxPixels):
            "\(w)×\(h) progressive JPEG, over the decode budget (\(maxPixels) pixels at its sampling)"
        case .damaged(let path, let detail): "\(path): damaged: \(detail)"
        case .notPrepared(let detail): "preprocessing failed: \(detail)"
        }
    }
}
