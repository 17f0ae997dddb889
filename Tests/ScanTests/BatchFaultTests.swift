import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `scan batch` under faults: a huge file in the manifest, two runs resuming from one output.
@Suite struct BatchFaultTests {
    let scan = ScanBinary()
    let candy = ScanBinary.path("samples/candy-label.jpg")

    func manifest(_ lines: [String]) throws -> String {
        let url = scan.dataDir.appendingPathComponent("manifest-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A sparse file of `bytes` (it costs no disk) named `name` in the data folder.
    func sparse(_ name: String, bytes: Int64) throws -> String {
        let path = scan.dataDir.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        try #require(truncate(path, off_t(bytes)) == 0)
        return path
    }

    /// Each photo is checked before it is read and hashed a chunk at a time: a 3 GB file gets its
    /// capture_error line without being read, a 400 MB one (within the photo limit, not a photo) is
    /// hashed in a small buffer, and the real photo beside them gets its result. The address space
    /// is limited to what one whole copy of the 3 GB file needs, not two: reading it whole died there.
    @Test func aHugeFileInTheManifestCostsNoMemoryAndStopsNoOtherPhoto() throws {
        let huge = try sparse("huge.jpg", bytes: 3 << 30)
        let large = try sparse("large.jpg", bytes: 400 << 20)
        let list = try manifest([huge, candy, large])
        let limited = ["/usr/bin/time", "-f", "%M", "/bin/sh", "-c", "ulimit -v 4500000 && exec \"$0\" \"$@\""]
        let run = try scan.run(["batch", "--manifest", list, "--region", "EU"], timeout: 300, wrapper: limited)
        let lines = run.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.map { $0["input"] as? String } == [huge, candy, large], "\(run.status) \(run.stderr.suffix(500))")
        #expect(run.status == 10, "the first failure's code: \(run.stderr.suffix(300))")
        guard lines.count == 3 else { return }
        #expect(lines[0].errorClass == "capture_error")
        #expect(lines[0]["exitCode"] as? Int == 10)
        #expect(lines[0]["sha256"] is NSNull, "a file over the limit is not read")
        #expect(lines[1].errorClass == nil && lines[1].codes.contains("E330"), "\(lines[1])")
        #expect(lines[1]["sha256"] as? String == (try BatchCommandTests.sha256(candy)))
        #expect(lines[2].errorClass == "capture_error")
        #expect(lines[2]["sha256"] as? String == (try BatchCommandTests.sha256(large)))
        let peak = try #require(NetworkRulesTests.peakMB(run), "\(run.stderr.suffix(300))")
        #expect(peak < 250, "peak \(peak) MB: a photo was held whole")
    }

    /// Starts `scan batch --resume out` with its output appended to `out`, as `>> out` does.
    func startResume(_ list: String, out: String) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = ScanBinary.executable
        process.arguments = ["batch", "--manifest", list, "--resume", out, "--region", "EU"]
        var env = ProcessInfo.processInfo.environment
        env["ECODEX_DATA_DIR"] = scan.dataDir.path
        env["ECODEX_CONFIG"] = scan.dataDir.appendingPathComponent("preferences.conf").path
        process.environment = env
        let fd = open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        process.standardOutput = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let err = Pipe()
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, err)
    }

    /// Reads `pipe` until `text` has come or the writer closed it; everything read.
    static func read(_ pipe: Pipe, until text: String) -> String {
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(text) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        return String(decoding: seen, as: UTF8.self)
    }

    /// Two runs resuming from the same output take turns, so each photo is done once. The test
    /// holds the output's lock itself while both start, so neither can begin before the other
    /// is waiting: no race decided by timing.
    @Test func twoRunsResumingFromOneOutputTakeTurns() throws {
        let photos = [candy] + (0..<7).map { ScanBinary.path("samples/missing-\($0).jpg") }
        let list = try manifest(photos)
        let out = scan.dataDir.appendingPathComponent("out.jsonl").path
        #expect(try scan.run(["code", "E100"]).status == 0, "the store is built before the runs")
        let held = open(out, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        try #require(held >= 0 && flock(held, LOCK_EX) == 0)
        let (first, firstErr) = try startResume(list, out: out)
        let (second, secondErr) = try startResume(list, out: out)
        let waiting = "waiting for it to end"
        let saidFirst = Self.read(firstErr, until: waiting)
        let saidSecond = Self.read(secondErr, until: waiting)
        close(held)
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(saidFirst.contains(waiting), "\(saidFirst)")
        #expect(saidSecond.contains(waiting), "\(saidSecond)")
        // One run did the work (the missing photos give 10), the other found it done.
        #expect([first.terminationStatus, second.terminationStatus].sorted() == [0, 10])
        let inputs = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["input"] as? String
        }
        #expect(inputs.sorted() == photos.sorted(), "each photo exactly once: \(inputs.count) lines")
    }
}
