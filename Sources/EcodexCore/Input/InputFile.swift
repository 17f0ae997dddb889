import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Opens the files a user names (photos, packs, product lists) the one safe way: a FIFO,
/// a device (`/dev/zero`), a socket or a folder is refused before anything reads from it,
/// so naming one can never hang `scan` or make it read without end.
public enum InputFile {
    /// What the file is for; chooses the failure's class and words.
    public enum Role: Sendable {
        /// A label or barcode photo: `capture_error`.
        case photo
        /// A rule pack: `update_error`.
        case pack
        /// A product list to import: `update_error`.
        case productList
        /// The preferences file: `parse_error`.
        case preferences
        /// A file of ingredient texts (`scan text --jsonl`): `parse_error`.
        case texts

        var noun: String {
            switch self {
            case .photo: "photo"
            case .pack: "pack file"
            case .productList: "product file"
            case .preferences: "preferences file"
            case .texts: "text file"
            }
        }

        func error(_ message: String, detail: String? = nil) -> EcodexError {
            switch self {
            case .photo: .capture(message, detail: detail)
            case .pack, .productList: .update(message, detail: detail)
            case .preferences: .parse(message, advice: .resetPreferences, detail: detail)
            case .texts: .parse(message, detail: detail)
            }
        }
    }

    /// Opens `path` for reading when it is a regular file, and returns its descriptor and size.
    /// The descriptor is opened non-blocking (a FIFO would otherwise block in `open`), then
    /// checked with `fstat` (no race with a swap after a path check), then made blocking.
    /// The caller closes it.
    ///
    /// - Throws: the role's class for a missing, unreadable or non-regular file.
    public static func open(_ path: String, role: Role) throws -> (fd: Int32, size: Int64) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw role.error("No file at \(path). Check the path and try again.")
            }
            throw role.error("The \(role.noun) \(path) cannot be opened. Check its permissions and try again.",
                             detail: String(cString: strerror(code)))
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw role.error("The \(role.noun) \(path) cannot be read.", detail: String(cString: strerror(code)))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            let kind = describe(st.st_mode)
            throw role.error("\(path) is \(kind), not a \(role.noun). Give the file itself.", detail: "file type \(kind)")
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, Int64(st.st_size))
    }

    /// Checks that `path` is a regular file (for a C library that opens the path itself).
    public static func check(_ path: String, role: Role) throws -> Int64 {
        let (fd, size) = try open(path, role: role)
        close(fd)
        return size
    }

    /// The first `limit` bytes of the regular file at `path`, or all of it when it is shorter;
    /// `tooLarge` decides the error when the file is longer than `limit`.
    public static func read(_ path: String, role: Role, limit: Int, tooLarge: @autoclosure () -> EcodexError) throws -> [UInt8] {
        let (fd, size) = try open(path, role: role)
        defer { close(fd) }
        guard size <= Int64(limit) else { throw tooLarge() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // Read to the end (the size may have changed since fstat), never past limit + 1 bytes.
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw role.error("The \(role.noun) \(path) cannot be read.", detail: String(cString: strerror(errno)))
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw tooLarge() }
        }
    }

    static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a pipe (FIFO)"
        case S_IFCHR: "a device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
