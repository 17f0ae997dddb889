import EcodexCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one owner of how files in the data folder are made: the folder is
/// readable by its owner only (0700), every file in it 0600, and what must
/// survive a crash is written aside, flushed and renamed.
///
/// History and the product cache are the user's own data, and the stores say
/// what they scan; nothing there is for other users of the machine.
enum DataFolder {
    static let folderMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Creates `directory` (and missing parents) with mode 0700. A folder that
    /// already exists keeps its mode: the user may have chosen a shared one on purpose.
    static func prepare(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: Int(folderMode)])
        } catch {
            throw StoreError.cannotWrite(folder: directory, detail: "\(error)")
        }
        // The mode given to mkdir is filtered by the umask; set it exactly.
        chmod(directory.path, folderMode)
    }

    /// Creates an empty file at `path` readable by its owner only, for SQLite to open:
    /// SQLite creates files 0644, and its journal, WAL and shm files copy the database
    /// file's mode, so a database created through here keeps all its files private.
    static func createPrivateFile(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard fd >= 0 else { throw ioError("open \(path)") }
        fchmod(fd, fileMode)
        close(fd)
    }

    /// Takes away what group and others may do with an existing file (a copy, a file an
    /// older version made); what its owner may do stays as it is (a read-only file stays so).
    static func makePrivate(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        chmod(path, info.st_mode & 0o700)
    }

    /// Writes `parts`, one after the other, to `url` all or nothing, like `writeAtomically`
    /// (for a large file held in pieces: nothing is copied into one buffer first).
    static func writeAtomically(parts: [UnsafeRawBufferPointer], to url: URL) throws {
        let temporary = url.path + ".tmp-\(getpid())-\(UUID().uuidString.prefix(8))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard fd >= 0 else { throw ioError("open \(temporary)") }
        fchmod(fd, fileMode)
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

    /// Writes `bytes` to `url` all or nothing: a private temporary file beside it,
    /// flushed, renamed over it, and the folder flushed.
    static func writeAtomically(_ bytes: Data, to url: URL) throws {
        let temporary = url.path + ".tmp-\(getpid())-\(UUID().uuidString.prefix(8))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard fd >= 0 else { throw ioError("open \(temporary)") }
        fchmod(fd, fileMode)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, url.path) == 0 else {
            let error = ioError("write \(url.path)")
            unlink(temporary)
            throw error
        }
        _ = syncFile(url.deletingLastPathComponent().path)
    }

    /// Appends one line to a private log file, creating it when missing.
    static func appendLine(_ line: Data, to url: URL) {
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // O_APPEND writes of one line land whole, even from two processes at once.
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// fsync()s a file or directory so a following rename cannot outrun its contents.
    static func syncFile(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }

    static func ioError(_ call: String) -> SystemError {
        SystemError(call: call, reason: String(cString: strerror(errno)))
    }

    /// A failed system call, for the `detail` of the error the caller raises.
    struct SystemError: Error, CustomStringConvertible {
        var call: String
        var reason: String
        var description: String { "\(call): \(reason)" }
    }
}

/// An exclusive lock on a file in the data folder (`flock`), held while `body` runs.
///
/// Every process that writes the same thing takes the same lock file, so they
/// take turns instead of interleaving. The lock is re-entrant within a process
/// (a pack install that first builds a missing store takes it once), and threads
/// of one process take turns too. The kernel releases it if the process dies.
enum FolderLock {
    /// The lock every writer of `additives.sqlite` takes: apply, rollback, rebuild, first-run build.
    static let additives = "additives.lock"
    /// The lock product imports take.
    static let products = "products.lock"

    private final class Held {
        let mutex = NSRecursiveLock()
        var depth = 0
        var fd: Int32 = -1
    }

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [String: Held] = [:]

    /// Runs `body` holding the lock when nobody else holds it; otherwise returns nil at once.
    /// For work that only saves time later (the parser image), which must never make a reader wait.
    @discardableResult
    static func withLockIfFree<T>(_ name: String, in directory: URL, _ body: () throws -> T) throws -> T? {
        let path = directory.appendingPathComponent(name).path
        registryLock.lock()
        let held = registry[path] ?? Held()
        registry[path] = held
        registryLock.unlock()
        guard held.mutex.try() else { return nil }
        defer { held.mutex.unlock() }
        if held.depth > 0 { return try withLock(name, in: directory, body) }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, DataFolder.fileMode)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        held.fd = fd
        held.depth = 1
        defer {
            held.depth = 0
            close(held.fd)
            held.fd = -1
        }
        return try body()
    }

    static func withLock<T>(_ name: String, in directory: URL, _ body: () throws -> T) throws -> T {
        try DataFolder.prepare(directory)
        let path = directory.appendingPathComponent(name).path
        registryLock.lock()
        let held = registry[path] ?? Held()
        registry[path] = held
        registryLock.unlock()

        held.mutex.lock()
        defer { held.mutex.unlock() }
        if held.depth == 0 {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, DataFolder.fileMode)
            guard fd >= 0 else {
                throw StoreError.cannotWrite(folder: directory, detail: "open \(name): \(String(cString: strerror(errno)))")
            }
            // Held by another process: a test may stop here to know this one is waiting its turn.
            if flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK { PackFault.point("lock-wait") }
            var result: Int32
            repeat { result = flock(fd, LOCK_EX) } while result != 0 && errno == EINTR
            guard result == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw StoreError.cannotWrite(folder: directory, detail: "flock \(name): \(reason)")
            }
            held.fd = fd
        }
        held.depth += 1
        defer {
            held.depth -= 1
            if held.depth == 0 {
                close(held.fd) // closing the only descriptor releases the flock
                held.fd = -1
            }
        }
        return try body()
    }
}
