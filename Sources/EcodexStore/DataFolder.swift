import EcodexCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The data folder's files, made the one way `PrivateFile` makes them: the folder is
/// readable by its owner only (0700), every file in it 0600, and what must survive a
/// crash is written aside, flushed and renamed.
///
/// History and the product cache are the user's own data, and the stores say
/// what they scan; nothing there is for other users of the machine.
enum DataFolder {
    static let folderMode = PrivateFile.folderMode
    static let fileMode = PrivateFile.fileMode
    typealias SystemError = PrivateFile.SystemError

    /// Creates `directory` (and missing parents) with mode 0700. A folder that already exists
    /// keeps its mode.
    static func prepare(_ directory: URL) throws {
        do {
            try PrivateFile.makeFolder(directory)
        } catch {
            throw StoreError.cannotWrite(folder: directory, detail: "\(error)")
        }
    }

    static func createPrivateFile(_ path: String) throws { try PrivateFile.createEmpty(path) }

    static func makePrivate(_ path: String) { PrivateFile.makePrivate(path) }

    static func writeAtomically(parts: [UnsafeRawBufferPointer], to url: URL) throws {
        try PrivateFile.writeAtomically(parts: parts, to: url)
    }

    static func writeAtomically(_ bytes: Data, to url: URL) throws { try PrivateFile.writeAtomically(bytes, to: url) }

    static func appendLine(_ line: Data, to url: URL) { PrivateFile.appendLine(line, to: url) }

    static func syncFile(_ path: String) -> Bool { PrivateFile.syncFile(path) }

    static func ioError(_ call: String) -> SystemError { PrivateFile.ioError(call) }
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
