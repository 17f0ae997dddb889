import Foundation
import Testing

/// Every JSON the command line prints, through the built binary, validated against the
/// committed schema (docs/schema/ecodex-output.schema.json) by `scripts/validate-json.py`
/// (python3-jsonschema, the reference validator of draft 2020-12).
@Suite(.serialized) struct JSONContractTests {
    /// Checks each line of `output` against the schema's `definition`.
    static func validate(_ definition: String, _ output: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", ScanBinary.path("scripts/validate-json.py"), definition, "-"]
        let inp = Pipe(), err = Pipe()
        p.standardInput = inp
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        try inp.fileHandleForWriting.write(contentsOf: Data(output.utf8))
        try inp.fileHandleForWriting.close()
        let problems = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(definition): \(problems)\n\(output.prefix(2000))", sourceLocation: sourceLocation)
    }

    /// Each timing is a whole number of tenths of a millisecond (no `6.918000000000001`).
    static func timingsAreRounded(_ line: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        for (stage, value) in line["timingsMs"] as? [String: Double] ?? [:] {
            #expect("\(value)".split(separator: ".").last.map { $0.count <= 1 } ?? true, "\(stage): \(value)", sourceLocation: sourceLocation)
        }
    }

    @Test func textCodeLookupHistoryStorePrefsVersionAndErrors() throws {
        let scan = ScanBinary()
        let text = try scan.run(["text", "Sugar, colours: E102, E129, acid: E330, E999", "--format", "json", "--avoid", "sulphites"])
        #expect(text.status == 0, "\(text.stderr)")
        try Self.validate("scanResult", text.stdout)
        text.jsonLines().forEach { Self.timingsAreRounded($0) }
        let named = try scan.run(["text", "water, preservative: sulphites", "--format", "json", "--avoid", "sulphites"])
        try Self.validate("scanResult", named.stdout)
        let warning = try #require((named.jsonLines().first?["warnings"] as? [[String: Any]])?.first)
        #expect(warning["code"] as? String == "named-on-label")
        let code = try scan.run(["code", "E120", "--format", "json", "--compare", "all"])
        try Self.validate("scanResult", code.stdout)
        let lines = try scan.run(["text", "--jsonl", "-", "--format", "json"], stdin: Data("{\"text\": \"E330\"}\nnot json\n".utf8))
        try Self.validate("any", lines.stdout)
        for (arguments, definition) in [
            (["lookup", "tartrazin", "--format", "json"], "lookup"),
            (["history", "--format", "json"], "historyList"),
            (["history", "show", "1", "--format", "json"], "historyEntry"),
            (["store", "status", "--format", "json"], "storeStatus"),
            (["prefs", "--format", "json"], "prefs"),
            (["prefs", "show", "--format", "json"], "prefs"),
            (["version", "--format", "json"], "version"),
        ] {
            let run = try scan.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            try Self.validate(definition, run.stdout)
        }
        for arguments in [["code", "E9999", "--format", "json"], ["missing.jpg", "--format", "json"],
                          ["barcode", "4006381333931", "--format", "json"], ["lookup", "qqqqqqqq", "--format", "json"],
                          ["text", "", "--format", "json"]] {
            let run = try scan.run(arguments)
            #expect(run.status != 0, "\(arguments)")
            try Self.validate("error", run.stdout)
            #expect(run.jsonLines().first?["exitCode"] as? Int == Int(run.status), "\(arguments)")
        }
        // A damaged store's advice comes with its code.
        try Data("not a database".utf8).write(to: scan.dataDir.appendingPathComponent("additives.sqlite"))
        let damaged = try scan.run(["code", "E330", "--format", "json"])
        try Self.validate("error", damaged.stdout)
        let advice = (damaged.jsonLines().first?["error"] as? [String: Any])?["advice"] as? [String: Any]
        #expect(advice?["code"] as? String == "rebuild-store", "\(damaged.stdout)")
    }

    @Test func photosBurstBarcodePhotoAndBatch() throws {
        let scan = ScanBinary()
        let photos = try scan.run([ScanBinary.path("samples/carmine-label.jpg"), ScanBinary.path("samples/barcode-only.jpg"),
                                   "missing.jpg", "--format", "json"], timeout: 300)
        try Self.validate("any", photos.stdout)
        let results = photos.jsonLines()
        #expect(results.count == 3)
        results.prefix(2).forEach { Self.timingsAreRounded($0) }
        try Self.validate("scanResult", photos.stdout.split(separator: "\n").prefix(2).joined(separator: "\n"))
        let burst = try scan.run(["burst", ScanBinary.path("samples/carmine-label.jpg"), ScanBinary.path("samples/carmine-label.jpg"),
                                  "--format", "json", "--time-limit", "0"], timeout: 300)
        try Self.validate("scanResult", burst.stdout)
        let barcode = try scan.run(["barcode", ScanBinary.path("samples/barcode-only.jpg"), "--format", "json"], timeout: 120)
        try Self.validate("error", barcode.stdout)
        let manifest = scan.dataDir.appendingPathComponent("manifest.txt")
        try "\(ScanBinary.path("samples/barcode-only.jpg"))\nmissing.jpg\n".write(to: manifest, atomically: true, encoding: .utf8)
        let batch = try scan.run(["batch", "--manifest", manifest.path], timeout: 300)
        try Self.validate("any", batch.stdout)
        let batchLines = batch.jsonLines()
        #expect(batchLines.count == 2)
        #expect((batchLines.first?["sha256"] as? String)?.count == 64)
        #expect(batchLines.last?["exitCode"] as? Int == 10)
        #expect(batchLines.last?.keys.contains("sha256") == true)
    }
}
