import Foundation
import Testing

/// Runs the built `scan` executable the way a user does, with its own data folder, which is
/// removed when the last reference goes (each test gets a fresh one and leaves nothing in /tmp).
final class ScanBinary: Sendable {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String

        /// Every stdout line parsed as a JSON object (JSON mode prints one per input).
        func jsonLines(sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
            stdout.split(separator: "\n").compactMap { line in
                let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if obj == nil { Issue.record("not a JSON line: \(line)", sourceLocation: sourceLocation) }
                return obj
            }
        }
    }

    /// The package root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `scan` binary next to the test bundle (`swift test` builds it), or
    /// `ECODEX_SCAN_BINARY` (to run the tests against another build, say main's).
    static let executable: URL = {
        if let other = ProcessInfo.processInfo.environment["ECODEX_SCAN_BINARY"], !other.isEmpty {
            return URL(fileURLWithPath: other)
        }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("scan")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/scan")
    }()

    let dataDir: URL

    init() {
        dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dataDir) }

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Runs `scan` with `arguments`; `stdin` is piped in when given. Killed after `timeout`
    /// seconds (recorded as an issue). `wrapper` (`strace …`, `unshare …`) runs `scan` under a tool.
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:], timeout: TimeInterval = 60,
             wrapper: [String] = []) throws -> Run {
        let p = Process()
        if let tool = wrapper.first {
            p.executableURL = URL(fileURLWithPath: tool)
            p.arguments = Array(wrapper.dropFirst()) + [ScanBinary.executable.path] + arguments
        } else {
            p.executableURL = ScanBinary.executable
            p.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["ECODEX_DATA_DIR"] = dataDir.path
        env["NO_COLOR"] = "1"
        // A test about something else must not lose words to the 8 s recognition limit on a busy
        // machine; the limit itself is tested on the reader's clock (TesseractLabelReaderTests).
        env["ECODEX_OCR_SECONDS"] = "600"
        env["ECODEX_CONFIG"] = dataDir.appendingPathComponent("preferences.conf").path
        for (k, v) in extra { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        // A child that stops reading its input early must not kill the tests with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try p.run()
        // Standard input is written and both outputs are read on their own threads: a child
        // that fills one pipe while we block on another (or never reads its input) cannot
        // deadlock the test, and the deadline below always gets to fire.
        let group = DispatchGroup()
        let collected = Collected()
        let queue = DispatchQueue.global()
        queue.async(group: group) {
            if let stdin { try? inp.fileHandleForWriting.write(contentsOf: stdin) }
            try? inp.fileHandleForWriting.close()
        }
        queue.async(group: group) { collected.set(out: out.fileHandleForReading.readDataToEndOfFile()) }
        queue.async(group: group) { collected.set(err: err.fileHandleForReading.readDataToEndOfFile()) }
        let finished = DispatchSemaphore(value: 0)
        queue.async { p.waitUntilExit(); finished.signal() }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(p.processIdentifier, SIGKILL)
            Issue.record("scan \(arguments) did not finish in \(timeout) s; killed")
            finished.wait()
        }
        // The child is gone; its pipes close with it (a stuck writer gives up when they do).
        if group.wait(timeout: .now() + 10) == .timedOut { Issue.record("scan \(arguments): output pipes stayed open") }
        let (outData, errData) = collected.get()
        return Run(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension ScanBinary {
    /// Runs one of the repository's Python scripts (`scripts/fuzz.py`, `packs/tools/…`) to its end:
    /// its exit status and its standard output and error together.
    static func python(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", path(script)] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, output)
    }
}

/// What the reader threads collected, handed over under a lock.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data(), err = Data()
    func set(out: Data) { lock.lock(); self.out = out; lock.unlock() }
    func set(err: Data) { lock.lock(); self.err = err; lock.unlock() }
    func get() -> (Data, Data) { lock.lock(); defer { lock.unlock() }; return (out, err) }
}

extension Dictionary where Key == String, Value == Any {
    var additives: [[String: Any]] { self["additives"] as? [[String: Any]] ?? [] }
    var codes: [String] { additives.compactMap { $0["code"] as? String } }
    func badge(_ code: String) -> String? { additives.first { $0["code"] as? String == code }?["badge"] as? String }
    var errorClass: String? { (self["error"] as? [String: Any])?["class"] as? String }
}

/// The words of a result's `warnings` (objects with `code` and `message`); nil when absent.
func warningMessages(_ value: Any?) -> [String]? {
    (value as? [[String: Any]])?.compactMap { $0["message"] as? String }
}
