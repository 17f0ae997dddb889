import Foundation
import Testing

/// The JSON of one typed label, compared whole with a file kept beside the tests, so any
/// change to the contract shows up as a diff. Timings (they vary) are set to 0 and the data
/// and pack versions (they change with every data update) to "-" first. `ECODEX_RECORD_SNAPSHOTS=1 swift test --filter JSONSnapshotTests` re-records.
@Suite struct JSONSnapshotTests {
    static let folder = ScanBinary.root.appendingPathComponent("Tests/ScanTests/Snapshots")

    /// `output`'s objects with timings zeroed, pretty-printed with sorted keys: one diffable text.
    static func normalized(_ output: String) throws -> String {
        var objects: [Any] = []
        for line in output.split(separator: "\n") {
            var obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if var timings = obj["timingsMs"] as? [String: Any] {
                for key in timings.keys { timings[key] = 0 }
                obj["timingsMs"] = timings
            }
            for key in ["dataVersion", "packVersion"] where obj[key] != nil { obj[key] = "-" }
            objects.append(obj)
        }
        let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func check(_ name: String, _ output: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        let actual = try normalized(output)
        if ProcessInfo.processInfo.environment["ECODEX_RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "\(name) differs; if the change is meant, re-record with ECODEX_RECORD_SNAPSHOTS=1",
                sourceLocation: sourceLocation)
    }

    @Test func aTypedLabelAndAnError() throws {
        let scan = ScanBinary()
        let run = try scan.run(["text", "--jsonl", "-", "--format", "json", "--avoid", "sulphites"], stdin: Data("""
            {"text": "Sugar, colours: E102, E129, acid: E330, E999, preservative: sulphites"}
            {"text": "water, salt"}
            not json

            """.utf8))
        try Self.check("scan-text-jsonl.json", run.stdout)
    }
}
