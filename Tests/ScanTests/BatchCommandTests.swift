import Foundation
import Testing

/// `scan batch`: the worker mode the distributed driver runs on every worker.
@Suite struct BatchCommandTests {
    let scan = ScanBinary()
    let candy = ScanBinary.path("samples/candy-label.jpg")
    let synth = ScanBinary.path("goldset/synth/g0000.jpg")
    let missing = ScanBinary.path("samples/no-such-photo.jpg")

    func manifest(_ lines: [String]) throws -> String {
        let url = scan.dataDir.appendingPathComponent("manifest-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func sha256(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return String(text.prefix(64))
    }

    @Test func eachInputGetsOneLineWithItsHashAndAFailureDoesNotStopTheBatch() throws {
        let list = try manifest(["# a comment", candy, "", missing, synth])
        let run = try scan.run(["batch", "--manifest", list, "--region", "EU"], timeout: 120)
        let lines = run.jsonLines()
        #expect(lines.map { $0["input"] as? String } == [candy, missing, synth], "\(run.stderr)")
        // The exit code is that of the first failed input, as for `scan a.jpg b.jpg`.
        #expect(run.status == 10)
        #expect(lines[0]["sha256"] as? String == (try Self.sha256(candy)))
        #expect(lines[2]["sha256"] as? String == (try Self.sha256(synth)))
        #expect(lines[1].errorClass == "capture_error")
        #expect(lines[1]["exitCode"] as? Int == 10)
        #expect(lines[1]["sha256"] is NSNull)

        // Each result is the report `scan IMAGE --format json` prints, plus the hash.
        let alone = try scan.run([candy, synth, "--format", "json", "--region", "EU"], timeout: 120).jsonLines()
        for (batch, single) in zip([lines[0], lines[2]], alone) {
            #expect(batch.codes == single.codes)
            #expect(batch.additives.map { $0["badge"] as? String } == single.additives.map { $0["badge"] as? String })
            #expect(Set(batch.keys).subtracting(single.keys) == ["sha256"])
        }
    }

    @Test func shardsSplitTheManifestWithoutOverlapAndStandardInputIsAManifest() throws {
        // Missing files are fast: they exercise slicing without OCR time.
        let paths = (0..<7).map { ScanBinary.path("samples/missing-\($0).jpg") }
        var seen: [String] = []
        for i in 0..<3 {
            let run = try scan.run(["batch", "--manifest", "-", "--shard", "\(i)/3"],
                                   stdin: Data(paths.joined(separator: "\n").utf8))
            let inputs = run.jsonLines().compactMap { $0["input"] as? String }
            #expect(inputs == paths.enumerated().filter { $0.offset % 3 == i }.map(\.element))
            seen += inputs
        }
        #expect(seen.sorted() == paths.sorted())
        let bad = try scan.run(["batch", "--manifest", "-", "--shard", "3/3"], stdin: Data())
        #expect(bad.status == 64, "\(bad.stderr)")
    }

    @Test func resumeSkipsInputsAlreadyDoneAndRedoesALineCutShort() throws {
        let list = try manifest([candy, missing, synth])
        let out = scan.dataDir.appendingPathComponent("out.jsonl")
        // An earlier run finished the candy label and was killed while writing the next line.
        let first = try scan.run(["batch", "--manifest", try manifest([candy]), "--region", "EU"], timeout: 120)
        try (first.stdout + "{\"input\": \"\(missing)\", \"err").write(to: out, atomically: true, encoding: .utf8)
        let run = try scan.run(["batch", "--manifest", list, "--resume", out.path, "--region", "EU"], timeout: 120)
        #expect(run.jsonLines().map { $0["input"] as? String } == [missing, synth])
    }

    @Test func anUnreadableManifestStopsBeforeAnyLine() throws {
        let run = try scan.run(["batch", "--manifest", missing])
        #expect(run.status == 10)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("capture_error"))
    }

    /// A library's typed error keeps its class: a data folder that cannot be written is a
    /// lookup_error (exit 13) with its advice, not the catch-all capture_error.
    @Test func aStoreThatCannotOpenStopsWithItsOwnClass() throws {
        let run = try scan.run(["batch", "--manifest", "-"], stdin: Data((candy + "\n").utf8),
                               environment: ["ECODEX_DATA_DIR": "/etc/passwd"])
        #expect(run.status == 13)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("lookup_error"))
        #expect(run.stderr.contains("ECODEX_DATA_DIR"))
    }
}
