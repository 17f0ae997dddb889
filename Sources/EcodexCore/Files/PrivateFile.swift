import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one owner of how `scan` makes its own files (data folder, config folder): folders
/// 0700, files 0600, whatever the umask, and what must survive a crash written aside,
/// flushed and renamed. The mode is set on the open descriptor, never left to the umask.
public enum PrivateFile {
    public static let folderMode: mode_t = 0o700
    public static let fileMode: mode_t = 0o600

    /// Creates `directory` and its missing parents, each 0700. A folder that already exists
    /// keeps its mode.
    public static func makeFolder(_ directory: URL) throws {
        var missing: [String] = []
        var path = directory.standardizedFileURL.path
        var info = stat()
        while !path.isEmpty, path != "/", stat(path, &info) != 0 {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() {
            guard mkdir(folder, folderMode) == 0 || errno == EEXIST else { throw ioError("mkdir \(folder)") }
            // The mode given to mkdir is filtered by the umask; set it exactly.
            chmod(folder, folderMode)
        }
        guard stat(directory.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw SystemError(call: "mkdir \(directory.path)", reason: "not a folder")
        }
    }

    /// Creates `path` (or opens it when it exists) for writing, 0600, and returns its descriptor.
    public static func create(_ path: String, flags: Int32 = O_WRONLY | O_CREAT) throws -> Int32 {
        let fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard fd >= 0 else { throw ioError("open \(path)") }
        fchmod(fd, fileMode)
        return fd
    }

    /// Creates an empty file at `path` readable by its owner only, for SQLite to open:
    /// SQLite creates files 0644, and its journal, WAL and shm files copy the database
    /// file's mode, so a database created through here keeps all its files private.
    public static func createEmpty(_ path: String) throws {
        close(try create(path))
    }

    /// Takes away what group and others may do with an existing file (a copy, a file an
    /// older version made); what its owner may do stays as it is (a read-only file stays so).
    public static func makePrivate(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        chmod(path, info.st_mode & 0o700)
    }

    /// Writes `parts`, one after the other, to `url` all or nothing: a private temporary
    /// file beside it, flushed, renamed over it, and the folder flushed. Nothing is copied
    /// into one buffer first.
    public static func writeAtomically(parts: [UnsafeRawBufferPointer], to url: URL) throws {
        let temporary = url.path + ".tmp-\(getpid())-\(UUID().uuidString.prefix(8))"
        let fd = try create(temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
        var complete = true
        for part in parts where complete {
            var done = 0
            while done < part.count {
                let n = write(fd, part.baseAddress! + done, part.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { complete = false; break }
                done += n
            }
        }
        let synced = complete && fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, url.path) == 0 else {
            let error = ioError("write \(url.path)")
            unlink(temporary)
            throw error
        }
        _ = syncFile(url.deletingLastPathComponent().path)
    }

    /// Writes `bytes` to `url` all or nothing (see `writeAtomically(parts:to:)`).
    public static func writeAtomically(_ bytes: Data, to url: URL) throws {
        try bytes.withUnsafeBytes { try writeAtomically(parts: [$0], to: url) }
    }

    /// Appends one line to a private log file, creating it when missing.
    public static func appendLine(_ line: Data, to url: URL) {
        guard let fd = try? create(url.path, flags: O_WRONLY | O_APPEND | O_CREAT) else { return }
        defer { close(fd) }
        // O_APPEND writes of one line land whole, even from two processes at once.
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// fsync()s a file or directory so a following rename cannot outrun its contents.
    public static func syncFile(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }

    public static func ioError(_ call: String) -> SystemError {
        SystemError(call: call, reason: String(cString: strerror(errno)))
    }

    /// A failed system call, for the `detail` of the error the caller raises.
    public struct SystemError: Error, CustomStringConvertible, LocalizedError {
        public var call: String
        public var reason: String
        public init(call: String, reason: String) {
            self.call = call
            self.reason = reason
        }
        public var description: String { "\(call): \(reason)" }
        public var errorDescription: String? { description }
    }
}
