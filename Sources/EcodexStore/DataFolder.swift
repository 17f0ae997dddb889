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
        try checkOwnership(directory)
    }

    /// Refuses a data folder another user could change, as ssh and gpg do: every folder on
    /// its path (symlinks followed, and every folder they pass through), the folder itself
    /// and the files in it must be the user's or root's and not writable by others. A sticky
    /// folder of root or the user (like /tmp) may be writable by others above the data folder.
    ///
    /// - Throws: `StoreError.ownedByOther` or `.writableByOthers` for the first such path.
    static func checkOwnership(_ directory: URL) throws {
        let me = geteuid()
        guard let folder = realPath(directory.path) else { return }
        var above = Set(chain(of: folder).dropLast())
        var prefix = ""
        for component in directory.standardizedFileURL.path.split(separator: "/").dropLast() {
            prefix += "/" + component
            if let real = realPath(prefix) { above.formUnion(chain(of: real)) }
        }
        above.remove(folder)
        for path in above.sorted(by: { $0.count < $1.count }) {
            try check(path, me: me, stickyAllowed: true)
        }
        var info = stat()
        guard lstat(folder, &info) == 0 else { return }
        if info.st_uid != me { throw StoreError.ownedByOther(path: URL(fileURLWithPath: folder), owner: info.st_uid) }
        try check(folder, me: me, stickyAllowed: false)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted().prefix(maximumEntriesChecked) {
            let path = folder + "/" + name
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFLNK:
                guard let target = realPath(path) else { continue }
                for step in chain(of: target).dropLast() { try check(step, me: me, stickyAllowed: true) }
                try check(target, me: me, stickyAllowed: false)
            default: try check(path, me: me, stickyAllowed: false)
            }
        }
    }

    /// Entries of the data folder checked (it holds a few dozen; the bound keeps a flooded one cheap).
    static let maximumEntriesChecked = 4_096

    private static func check(_ path: String, me: uid_t, stickyAllowed: Bool) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let url = URL(fileURLWithPath: path)
        guard info.st_uid == me || info.st_uid == 0 else { throw StoreError.ownedByOther(path: url, owner: info.st_uid) }
        let sticky = info.st_mode & S_IFMT == S_IFDIR && info.st_mode & S_ISVTX != 0
        if info.st_mode & 0o022 != 0, !(stickyAllowed && sticky) {
            throw StoreError.writableByOthers(path: url, mode: info.st_mode & 0o7777)
        }
    }

    /// `path` with every symlink resolved, or nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `/`, `/a`, `/a/b` for `/a/b`.
    private static func chain(of path: String) -> [String] {
        var out = ["/"]
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            out.append(prefix)
        }
        return out
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
