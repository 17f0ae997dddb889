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
        case .damaged(let path, let detail): "\(path): damaged: \(detail)"
        case .notPrepared(let detail): "preprocessing failed: \(detail)"
        }
    }
}
