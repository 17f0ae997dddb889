import Foundation
import Testing

/// A batch (`scan a.jpg b.jpg …`) reads photos two at a time on two cores, one engine each;
/// what it says about each photo, and in which order, is what one photo at a time says.
@Suite struct BatchTests {
    let scan = ScanBinary()

    /// What a result says: the input, each additive with its badge, the warnings; or the error class.
    static func summary(_ line: [String: Any]) -> String {
        if let error = line.errorClass { return "\(line["input"] ?? "?") error \(error)" }
        let additives = line.additives.map { "\($0["code"] ?? "?")=\($0["badge"] ?? "?")" }
        let warnings = (line["warnings"] as? [String]) ?? []
        return "\(line["input"] ?? "?") \(additives) \(warnings)"
    }

    @Test func aBatchOnTwoCoresSaysWhatOnePhotoAtATimeSays() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-batch-\(UUID().uuidString).jpg")
        try Data("not a photo".utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let photos = [
            ScanBinary.path("samples/carmine-label.jpg"), ScanBinary.path("goldset/real/dart_ingredients_small_en.jpg"),
            bad.path, ScanBinary.path("samples/candy-label.jpg"), ScanBinary.path("samples/barcode-only.jpg"),
        ]
        let options = ["--format", "json", "--region", "EU", "--lang", "eng"]
        let batch = try scan.run(photos + options, timeout: 120)
        #expect(batch.status == 10) // the bad file's capture_error, and the batch carried on
        let together = batch.jsonLines().map(Self.summary)

        var alone: [String] = []
        for photo in photos {
            alone += try scan.run([photo] + options).jsonLines().map(Self.summary)
        }
        #expect(together.count == photos.count)
        #expect(together == alone)
        #expect(together.first?.contains("E120") == true)
    }
}
