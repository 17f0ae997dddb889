import Foundation
import Testing

/// Runs the built `scan` executable the way a user does, with its own data folder.
struct ScanBinary {
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

    /// The `scan` binary next to the test bundle (`swift test` builds it).
    static let executable: URL = {
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

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Runs `scan` with `arguments`; `stdin` is piped in when given. Times out after `timeout` seconds.
    /// `wrapper` runs scan under another program (`["/usr/bin/strace", "-f", …]`).
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:], timeout: TimeInterval = 60,
             wrapper: [String] = []) throws -> Run {
        let p = Process()
        p.executableURL = wrapper.first.map { URL(fileURLWithPath: $0) } ?? ScanBinary.executable
        p.arguments = wrapper.isEmpty ? arguments : Array(wrapper.dropFirst()) + [ScanBinary.executable.path] + arguments
        var env = ProcessInfo.processInfo.environment
        env["ECODEX_DATA_DIR"] = dataDir.path
        env["NO_COLOR"] = "1"
        env["ECODEX_CONFIG"] = dataDir.appendingPathComponent("preferences.conf").path
        for (k, v) in extra { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        if let stdin { inp.fileHandleForWriting.write(stdin) }
        try inp.fileHandleForWriting.close()
        // Read before waiting so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            p.terminate()
            Issue.record("scan \(arguments) did not finish in \(timeout) s")
        }
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension Dictionary where Key == String, Value == Any {
    var additives: [[String: Any]] { self["additives"] as? [[String: Any]] ?? [] }
    var codes: [String] { additives.compactMap { $0["code"] as? String } }
    func badge(_ code: String) -> String? { additives.first { $0["code"] as? String == code }?["badge"] as? String }
    var errorClass: String? { (self["error"] as? [String: Any])?["class"] as? String }
}
