import ArgumentParser
import Crypto
import EcodexCore
import EcodexVision
import Foundation

#if canImport(Glibc)
import Glibc
#endif

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Worker mode for large jobs: scan every photo listed in a manifest, one JSON line each.",
        discussion: """
            The manifest has one local photo path per line (blank lines and lines starting with # \
            are skipped); `-` reads it from standard input. One OCR engine and one store serve every \
            photo, and each result is printed as soon as it is done: the JSON report of \
            `scan IMAGE --format json` with `sha256` (of the photo's bytes) added. The output is \
            always JSON Lines (--format html is refused).

            A photo that fails prints {"input", "sha256", "error": {"class", "message"}, "exitCode"} \
            and the batch goes on. Results are not saved to history. The exit code is that of the \
            first failed photo, or 0.

            `--shard I/N` takes the manifest lines whose index (from 0, counting only path lines) \
            is I modulo N; `--resume OUT.jsonl` skips every input that already has a line in OUT.jsonl. \
            Runs resuming from the same file take turns: a second one waits for the first to end.
            """
    )

    @Option(help: "File listing one photo path per line, or - for standard input.")
    var manifest: String

    @Option(help: "Take only slice I of N (0 ≤ I < N) of the manifest's lines, e.g. 0/4.")
    var shard: Shard = Shard(index: 0, count: 1)

    @Option(help: "JSON Lines output of an earlier run: inputs with a line there are skipped.")
    var resume: String?

    @OptionGroup var reading: ReadingOptions

    @OptionGroup var shopper: ShopperOptions

    func validate() throws {
        if shopper.format == .html { throw ValidationError("scan batch writes JSON Lines; --format html is not offered here.") }
    }

    func run() throws {
        let (options, online) = try shopper.settings()
        // Held until the process ends (the kernel drops it then), after the last line is written.
        let turn = try resume.map(Self.takeTurn(on:))
        defer { withExtendedLifetime(turn) {} }
        let done = try resume.map(Self.inputsDone(in:)) ?? []
        guard let lines = LineReader(path: manifest) else {
            throw Self.stop(EcodexError.capture("The manifest \(manifest) cannot be read. Check the path."))
        }
        let scanner: ScanPipeline
        do {
            // History stays off: a corpus job is not a shopper's scan, and history keeps only 1,000 scans.
            (scanner, _) = try Wiring.imageScanner(reading: reading, shopper: shopper, online: online)
        } catch {
            throw Self.stop(error)
        }
        var firstFailure: ErrorClass?
        var index = 0, failures = 0
        let progress = WorkProgress("scan batch", total: WorkProgress.photosListed(in: manifest, taken: { shard.takes($0) && !done.contains($1) }),
                                noun: "photos", printsAsItGoes: true)
        progress.start()
        while let line = lines.next() {
            let path = line.trimmingCharacters(in: .whitespaces)
            if path.isEmpty || path.hasPrefix("#") { continue }
            defer { index += 1 }
            guard shard.takes(index), !done.contains(path) else { continue }
            let failed = Self.scanOne(path, scanner: scanner, options: options)
            if let failed, firstFailure == nil { firstFailure = failed }
            failures += failed == nil ? 0 : 1
            progress.step(path)
        }
        progress.finish(failures > 0 ? "\(failures) failed" : nil)
        if let firstFailure { throw ExitCode(firstFailure.exitCode) }
    }

    /// Scans one photo and prints its line; returns the error class when it failed.
    /// The file is checked and hashed first, in a bounded buffer, so no input can stop the batch.
    static func scanOne(_ path: String, scanner: ScanPipeline, options: ScanOptions) -> ErrorClass? {
        let hash: String
        do {
            hash = try photoHash(path)
        } catch {
            return failed(path, hash: nil, error)
        }
        do {
            let report = try scanner.scan(.image(path: path), options: options)
            emit(JSONRenderer.render(report, sha256: hash))
            return nil
        } catch {
            return failed(path, hash: hash, error)
        }
    }

    /// Prints the error line of one input; returns its class.
    private static func failed(_ path: String, hash: String?, _ error: Error) -> ErrorClass {
        let e = Failure.classify(error, arguments: ["scan", "batch"])
        emit(Output.json(e, input: path, sha256: .some(hash)))
        return e.errorClass
    }

    /// Bytes read at a time while hashing: a photo of any size costs this much memory.
    static let hashChunkBytes = 1 << 20

    /// The SHA-256 (hex) of a photo `PhotoFile` agrees to open (a regular file within the photo
    /// size limit), read a chunk at a time.
    static func photoHash(_ path: String) throws -> String {
        let (fd, _) = try PhotoFile.open(path)
        defer { close(fd) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: hashChunkBytes, alignment: 16)
        defer { chunk.deallocate() }
        var hasher = SHA256()
        var total: Int64 = 0
        while true {
            let n = read(fd, chunk.baseAddress, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputFileError.cannotRead(path: path, role: .photo, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            total += Int64(n)
            // The file may have grown since it was opened.
            guard total <= PhotoFile.maximumBytes else {
                throw InputFileError.tooLarge(path: path, role: .photo, limit: Int(PhotoFile.maximumBytes))
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
        return Hex.encode(Array(hasher.finalize()))
    }

    private static func emit(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// A failure before any photo is read (manifest, store, OCR engine): said on standard error,
    /// no line printed, so a resumed run or a driver's retry does the whole slice again.
    static func stop(_ error: Error) -> ExitCode {
        let e = Failure.classify(error, arguments: ["scan", "batch"])
        FileHandle.standardError.write(Data("scan batch: \(e.errorClass.rawValue): \(Failure.text(e))\n".utf8))
        return ExitCode(e.errorClass.exitCode)
    }

    /// Takes an exclusive `flock` on the resume file, so runs resuming from the same output take
    /// turns: a second run waits (and says so) until the first ends, then skips what it wrote.
    /// The file is created when missing, as `>> OUT` would; anything but a regular file is refused.
    static func takeTurn(on path: String) throws -> FileHandle {
        let fd = open(path, O_RDONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw stop(EcodexError.capture("The resume file \(path) cannot be read.")) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw stop(EcodexError.capture("The resume file \(path) is not a regular file."))
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else { throw stop(EcodexError.capture("The resume file \(path) cannot be locked.")) }
            FileHandle.standardError.write(Data("scan batch: another run is resuming from \(path); waiting for it to end.\n".utf8))
            var result: Int32
            repeat { result = flock(fd, LOCK_EX) } while result != 0 && errno == EINTR
            guard result == 0 else { throw stop(EcodexError.capture("The resume file \(path) cannot be locked.")) }
        }
        return handle
    }

    /// The inputs that have a whole line (result or error) in an earlier run's output.
    /// A line cut short by a kill does not parse, so its input is done again.
    static func inputsDone(in path: String) throws -> Set<String> {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let lines = LineReader(path: path) else {
            throw stop(EcodexError.capture("The resume file \(path) cannot be read."))
        }
        var done = Set<String>()
        while let line = lines.next() {
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let input = obj["input"] as? String else { continue }
            done.insert(input)
        }
        return done
    }
}

/// `I/N`: this worker's slice of a manifest.
struct Shard: ExpressibleByArgument, CustomStringConvertible {
    let index: Int
    let count: Int

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    init?(argument: String) {
        let parts = argument.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n > 0, i >= 0, i < n else { return nil }
        self.init(index: i, count: n)
    }

    func takes(_ lineIndex: Int) -> Bool { lineIndex % count == index }

    var description: String { "\(index)/\(count)" }
}

/// Reads a file (or standard input for `-`) one line at a time, so a manifest of
/// millions of lines never sits in memory.
final class LineReader {
    private let file: UnsafeMutablePointer<FILE>
    private let owned: Bool
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    init?(path: String) {
        if path == "-" {
            guard let f = fdopen(STDIN_FILENO, "r") else { return nil }
            file = f
            owned = false
        } else {
            guard let f = fopen(path, "r") else { return nil }
            file = f
            owned = true
        }
    }

    deinit {
        free(buffer)
        if owned { fclose(file) }
    }

    /// The next line without its line break; nil at the end. Invalid UTF-8 is replaced.
    func next() -> String? {
        let n = getline(&buffer, &capacity, file)
        guard n >= 0, let buffer else { return nil }
        var length = n
        while length > 0, buffer[length - 1] == 0x0A || buffer[length - 1] == 0x0D { length -= 1 }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
