import Foundation
import Testing

/// The end-to-end helpers clean up after themselves: before session 21 every full run left
/// about 150 data folders (4 MB each, with their store) in the temporary directory.
@Suite("Test helpers leave nothing behind")
struct TestHygieneTests {
    @Test("A scan's data folder is removed when the test lets go of it")
    func scanDataFolderIsRemoved() throws {
        var folder: URL?
        do {
            let scan = ScanBinary()
            folder = scan.dataDir
            let run = try scan.run(["code", "E330"])
            #expect(run.status == 0)
            #expect(FileManager.default.fileExists(atPath: scan.dataDir.appendingPathComponent("additives.sqlite").path))
        }
        let gone = try #require(folder)
        #expect(!FileManager.default.fileExists(atPath: gone.path))
    }
}

/// A test holds on a busy machine: it asserts on what happened, never on how long it took, and
/// it waits for events (a file, a semaphore, a process), never for time to pass. Deadlines are
/// tested with an injected clock, a pause point or a limit the test sets generously; speed is
/// measured in Benchmarks/.
@Suite struct TimingHygieneTests {
    /// What reads the clock or sleeps in a test source.
    static var patterns: [(name: String, regex: Regex<Substring>)] { [
        ("elapsed time", /timeIntervalSince\(|\.timeIntervalSinceNow|\.uptimeNanoseconds|ContinuousClock|SuspendingClock|clock_gettime|systemUptime|CFAbsoluteTimeGetCurrent/),
        ("a deadline on the wall clock", /Date\(\)\s*(?:<|>|\.addingTimeInterval)/),
        ("a sleep", /\busleep\(|\bsleep\(|nanosleep\(|Thread\.sleep|Task\.sleep/),
    ] }

    /// Words one of the patterns needs: a cheap first look, so only a few lines meet a regex.
    static let hints = ["ime", "leep", "Clock", "clock", "ptime", "Date()"]

    /// Lines allowed to read the clock or sleep: hang guards that only end a wait for an event
    /// which never came, stand-in servers that play a slow network, and a measurement reported
    /// but never asserted. (file name, text on the line)
    static let allowed: [(file: String, text: String)] = [
        ("PausePoint.swift", "let end = Date().addingTimeInterval(hangGuard)"),
        ("PausePoint.swift", "while !isReached && process.isRunning && Date() < end { usleep(10_000) }"),
        ("UpdateServerProcess.swift", "let deadline = Date().addingTimeInterval(60)"),
        ("UpdateServerProcess.swift", "if Date() > deadline {"),
        ("UpdateServerProcess.swift", "while Date() < deadline {"),
        ("UpdateServerProcess.swift", "usleep(20_000)"),
        ("UpdateServerProcess.swift", "usleep(50_000)"),
        ("PostgresTestCluster.swift", "let deadline = Date().addingTimeInterval(90)"),
        ("PostgresTestCluster.swift", "if Date() > deadline {"),
        ("PostgresTestCluster.swift", "usleep(20_000)"),
        ("ProductTestServer.swift", "let end = Date().addingTimeInterval(lifetime)"),
        ("ProductTestServer.swift", "while !isStopped && Date() < end && connections < maxConnections {"),
        ("ProductTestServer.swift", "usleep(20_000)"),
        ("ProductTestServer.swift", "usleep(UInt32(interval * 1_000_000))"),
        ("ParallelWorkTests.swift", "usleep(200)"),
    ]

    /// Offending lines under `root` as "file:line: what: text", and the allow-list entries no line used.
    static func findings(under root: URL) throws -> (offending: [String], unused: [String]) {
        var offending: [String] = []
        var used = Set<Int>()
        // A linked file (OnlineTestServer.swift) is read once, under its own name.
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isSymbolicLinkKey])?
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && (try? $0.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) != true }
            .sorted { $0.path < $1.path } ?? []
        for file in files {
            let name = file.lastPathComponent
            for (number, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") || !Self.hints.contains(where: code.contains) { continue }
                // This suite's own tables name what they look for.
                if name == "TestHygieneTests.swift" && (code.hasPrefix("(\"") || code.contains("Regex<")) { continue }
                for (what, regex) in patterns where line.contains(regex) {
                    if let i = allowed.firstIndex(where: { $0.file == name && code.contains($0.text) }) {
                        used.insert(i)
                    } else {
                        offending.append("\(file.path.dropFirst(root.path.count + 1)):\(number + 1): \(what): \(code)")
                    }
                }
            }
        }
        let unused = allowed.indices.filter { !used.contains($0) }.map { "\(allowed[$0].file): \(allowed[$0].text)" }
        return (offending, unused)
    }

    @Test func noTestTimesItselfOrSleepsForTime() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let (offending, unused) = try Self.findings(under: tests)
        #expect(offending.isEmpty, "clock reads or sleeps in tests:\n\(offending.joined(separator: "\n"))")
        #expect(unused.isEmpty, "allow-list entries that match nothing (remove them):\n\(unused.joined(separator: "\n"))")
    }

    /// The scan finds what it is meant to, so an empty result above means something.
    @Test func theScanFindsAClockCheckAndASleep() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hygiene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Spelled in pieces, so this file does not hold what it looks for.
        let sample = ["let started = Date()", "#expect(Date().timeInterval" + "Since(started) < 12)",
                      "us" + "leep(1_500_000)", "// us" + "leep(1) in a comment is fine"].joined(separator: "\n")
        try Data(sample.utf8).write(to: folder.appendingPathComponent("Sample.swift"))
        let (offending, _) = try Self.findings(under: folder)
        #expect(offending.count == 2, "\(offending)")
        #expect(offending.first?.hasPrefix("Sample.swift:2: elapsed time") == true, "\(offending)")
    }
}
