import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Opens the files a user names (photos, packs, product lists) the one safe way: a FIFO,
/// a device (`/dev/zero`), a socket or a folder is refused before anything reads from it,
/// so naming one can never hang `scan` or make it read without end.
public enum InputFile {
    /// What the file is for; chooses the failure's class and words.
    public enum Role: Sendable, Equatable {
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

        public var noun: String {
            switch self {
            case .photo: "photo"
            case .pack: "pack file"
            case .productList: "product file"
            case .preferences: "preferences file"
            case .texts: "text file"
            }
        }

        /// The class of a failure to read a file in this role.
        public var errorClass: ErrorClass {
            switch self {
            case .photo: .capture
            case .pack, .productList: .update
            case .preferences, .texts: .parse
            }
        }
    }

    /// Opens `path` for reading when it is a regular file, and returns its descriptor and size.
    /// The descriptor is opened non-blocking (a FIFO would otherwise block in `open`), then
    /// checked with `fstat` (no race with a swap after a path check), then made blocking.
    /// The caller closes it.
    ///
    /// - Throws: the role's class for a missing, unreadable or non-regular file.
    public static func open(_ path: String, role: Role) throws(InputFileError) -> (fd: Int32, size: Int64) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw InputFileError.missing(path: path, role: role)
            }
            throw InputFileError.cannotOpen(path: path, role: role, reason: String(cString: strerror(code)))
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw InputFileError.cannotRead(path: path, role: role, reason: String(cString: strerror(code)))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            let kind = describe(st.st_mode)
            throw InputFileError.notARegularFile(path: path, role: role, kind: kind)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, Int64(st.st_size))
    }

    /// Checks that `path` is a regular file (for a C library that opens the path itself).
    public static func check(_ path: String, role: Role) throws(InputFileError) -> Int64 {
        let (fd, size) = try open(path, role: role)
        close(fd)
        return size
    }

    /// The first `limit` bytes of the regular file at `path`, or all of it when it is shorter;
    /// A longer file is an `InputFileError.tooLarge`.
    public static func read(_ path: String, role: Role, limit: Int) throws(InputFileError) -> [UInt8] {
        let (fd, size) = try open(path, role: role)
        defer { close(fd) }
        guard size <= Int64(limit) else { throw .tooLarge(path: path, role: role, limit: limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // Read to the end (the size may have changed since fstat), never past limit + 1 bytes.
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, role: role, reason: String(cString: strerror(errno)))
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw .tooLarge(path: path, role: role, limit: limit) }
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

/// Why a file the user named could not be read; its class comes from the file's role.
public enum InputFileError: ClassifiedError, Equatable {
    /// Nothing at `path` (or a path through something that is not a folder).
    case missing(path: String, role: InputFile.Role)
    /// `open` failed for another `reason` (permissions, say).
    case cannotOpen(path: String, role: InputFile.Role, reason: String)
    /// Opened, but reading failed.
    case cannotRead(path: String, role: InputFile.Role, reason: String)
    /// A folder, pipe, device or socket (`kind`), refused before reading.
    case notARegularFile(path: String, role: InputFile.Role, kind: String)
    /// Longer than the `limit` in bytes read for this role.
    case tooLarge(path: String, role: InputFile.Role, limit: Int)

    public var role: InputFile.Role {
        switch self {
        case .missing(_, let r), .cannotOpen(_, let r, _), .cannotRead(_, let r, _), .notARegularFile(_, let r, _),
             .tooLarge(_, let r, _): r
        }
    }

    public var path: String {
        switch self {
        case .missing(let p, _), .cannotOpen(let p, _, _), .cannotRead(let p, _, _), .notARegularFile(let p, _, _),
             .tooLarge(let p, _, _): p
        }
    }

    public var errorClass: ErrorClass { role.errorClass }

    public var description: String {
        switch self {
        case .missing(let p, let r): "\(r.noun) \(p): no such file"
        case .cannotOpen(let p, let r, let why): "\(r.noun) \(p): open: \(why)"
        case .cannotRead(let p, let r, let why): "\(r.noun) \(p): read: \(why)"
        case .notARegularFile(let p, let r, let kind): "\(r.noun) \(p): file type \(kind)"
        case .tooLarge(let p, let r, let limit): "\(r.noun) \(p): over \(limit) bytes"
        }
    }
}
