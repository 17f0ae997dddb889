import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends the process's stderr to /dev/null while a decoder runs.
///
/// libjpeg ("Premature end of JPEG file") and libpng ("libpng error: Read
/// Error") print straight to stderr from inside Leptonica, which offers no
/// hook for them; a shopper should see only our message. The redirection is
/// process-wide, so it is held for as short a time as possible and
/// serialised with a lock.
enum StderrSilencer {
    private static let lock = NSLock()

    static func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        // fflush(nil) flushes every stream; naming `stderr` is not concurrency-safe in Swift 6.
        defer { lock.unlock() }
        fflush(nil)
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        guard saved >= 0, null >= 0 else {
            if saved >= 0 { close(saved) }
            if null >= 0 { close(null) }
            return try body()
        }
        dup2(null, STDERR_FILENO)
        close(null)
        defer {
            fflush(nil)
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        return try body()
    }
}
