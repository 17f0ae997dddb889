import EcodexCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The photo files Ecodex agrees to open, for the loader and for callers that read a
/// photo's bytes themselves (a batch hashes each photo): a regular file, no larger than
/// any image within the loader's pixel limits can be.
public enum PhotoFile {
    /// Largest photo file, in bytes: the most pixels `ImageLoader` decodes at 8 bytes each
    /// (16-bit RGBA, uncompressed). A bigger file is no photo that could be read.
    public static let maximumBytes = Int64(ImageLoader.maxPixels) * 8

    /// Opens `path` for reading when it is a regular file within `maximumBytes`; returns its
    /// descriptor (the caller closes it) and size. Throws a `capture_error` otherwise.
    public static func open(_ path: String) throws(InputFileError) -> (fd: Int32, size: Int64) {
        let (fd, size) = try InputFile.open(path, role: .photo)
        guard size <= maximumBytes else {
            close(fd)
            throw .tooLarge(path: path, role: .photo, limit: Int(maximumBytes))
        }
        return (fd, size)
    }
}
