import ArgumentParser
import EcodexCore
import EcodexVision
import Foundation

/// `-o/--output FILE`: standard output goes to a temporary file beside FILE, renamed over it
/// when the command ends, so a reader never sees half a result.
enum OutputFile {
    nonisolated(unsafe) private static var pending: (temporary: String, final: String)?

    static func redirect(to path: String) throws {
        guard pending == nil else { return }
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ValidationError(Failure.cannotWriteOutput(path, reason: String(cString: strerror(errno)))) }
        fflush(nil)
        dup2(fd, STDOUT_FILENO)
        close(fd)
        pending = (temporary, path)
        atexit { OutputFile.commit() }
    }

    /// Flushes what was printed and puts the file in place (at exit, whatever the exit code:
    /// a failure's JSON is that run's result too).
    static func commit() {
        guard let (temporary, final) = pending else { return }
        pending = nil
        fflush(nil)
        fsync(STDOUT_FILENO)
        if rename(temporary, final) != 0 { unlink(temporary) }
    }
}

/// `-q/--quiet`: the result and errors only; notes, warnings and progress stay off standard error.
enum Quiet {
    nonisolated(unsafe) static var on = false

    /// A note or warning line on standard error, unless quiet.
    static func note(_ line: String) {
        guard !on else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// `scan -`: a photo read from standard input into a private temporary file, bounded like a
/// photo file; removed when the command ends.
enum StandardInputPhoto {
    nonisolated(unsafe) private static var made: String?

    /// `paths` with `-` replaced by the saved photo.
    static func resolve(_ paths: [String]) throws -> [String] {
        guard paths.contains("-") else { return paths }
        let saved = try save()
        return paths.map { $0 == "-" ? saved : $0 }
    }

    private static func save() throws -> String {
        if let made { return made }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-stdin-\(getpid())").path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw InputFileError.cannotOpen(path: "stdin", role: .photo, reason: String(cString: strerror(errno))) }
        made = path
        atexit { if let made = StandardInputPhoto.made { unlink(made) } }
        defer { close(fd) }
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw InputFileError.cannotRead(path: "stdin", role: .photo, reason: String(cString: strerror(errno))) }
            if n == 0 { break }
            total += Int64(n)
            guard total <= PhotoFile.maximumBytes else {
                throw InputFileError.tooLarge(path: "stdin", role: .photo, limit: Int(PhotoFile.maximumBytes))
            }
            guard buffer.withUnsafeBytes({ write(fd, $0.baseAddress, n) }) == n else {
                throw InputFileError.cannotRead(path: "stdin", role: .photo, reason: "the temporary copy could not be written")
            }
        }
        return path
    }
}

/// `history clear` deletes every saved result: on a terminal it asks first; elsewhere it
/// needs `--yes`, so a script never deletes by accident.
enum Confirmation {
    /// True when the deletion may go ahead.
    static func clearHistory(yes: Bool) throws -> Bool {
        if yes { return true }
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else {
            throw ValidationError("This deletes every saved result. Add --yes to confirm when not on a terminal.")
        }
        FileHandle.standardError.write(Data("Delete all saved results? [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}
