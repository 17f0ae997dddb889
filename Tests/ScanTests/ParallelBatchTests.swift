import Foundation
import Testing

/// `scan a.jpg b.jpg …` reads several photos at once (one engine per core); the answers
/// must not depend on it: the same reports, in input order, as one photo after the other.
@Suite struct ParallelBatchTests {
    let scan = ScanBinary()

    /// Input, additives with badges, warnings and unknown codes of each report, in output order.
    static func verdicts(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { line in
            guard let r = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            let additives = (r["additives"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "")/\($0["badge"] ?? "")" }
            return "\(r["input"] ?? "") \(additives) \(warningMessages(r["warnings"]) ?? []) \(r["unmatched"] ?? [])"
        }
    }

    @Test func twoAtOnceGiveTheSameReportsInInputOrderAsOneAtATime() throws {
        // Gold-set photos of several conditions, some with additives and some without, and one
        // that is not a photo: its failure keeps its place.
        let photos = ["g0000", "g0003", "g0007", "g0011", "g0016", "g0020", "g0024", "g0031"]
            .map { ScanBinary.path("goldset/synth/\($0).jpg") }
        let args = photos + [ScanBinary.path("README.md"), ScanBinary.path("samples/candy-label.jpg"), "--region", "EU", "--format", "json"]
        let one = try scan.run(args + ["--jobs", "1"], timeout: 300)
        let two = try scan.run(args + ["--jobs", "2"], timeout: 300)
        let a = Self.verdicts(one.stdout), b = Self.verdicts(two.stdout)
        #expect(a.count == photos.count + 2, "one line per input: \(one.stdout.prefix(500))")
        #expect(a == b)
        #expect(a.map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == (photos + [ScanBinary.path("README.md"), ScanBinary.path("samples/candy-label.jpg")]),
                "input order")
        #expect(one.status == two.status)
    }

    /// A batch prints each result as soon as it and those before it are read, not when the
    /// last photo is: a shopper (or a driver with a per-photo time limit) sees progress. The
    /// first input is not a photo, so its line is ready at once; a dozen photos follow.
    @Test func theFirstLineComesWhilePhotosAreStillBeingRead() throws {
        let photos = (0..<12).map { ScanBinary.path(String(format: "goldset/synth/g%04d.jpg", $0)) }
        let p = Process()
        p.executableURL = ScanBinary.executable
        p.arguments = [ScanBinary.path("README.md")] + photos + ["--format", "json", "--jobs", "2"]
        var env = ProcessInfo.processInfo.environment
        env["ECODEX_DATA_DIR"] = scan.dataDir.path
        env["ECODEX_CONFIG"] = scan.dataDir.appendingPathComponent("preferences.conf").path
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        // The store is built by a first run, so the batch below starts reading at once.
        _ = try scan.run(["code", "E100"])
        try p.run()
        let reader = out.fileHandleForReading
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            first += chunk
        }
        // Stopped as soon as the first line is in: a batch that held its lines until the end
        // would have printed every line by now; one that prints as it goes has photos left.
        kill(p.processIdentifier, SIGKILL)
        let rest = reader.readDataToEndOfFile()
        p.waitUntilExit()
        let lines = String(decoding: first + rest, as: UTF8.self).split(separator: "\n")
        #expect(p.terminationReason == .uncaughtSignal, "the batch was still running when its first line came")
        #expect(lines.count < photos.count + 1, "every line came at once: \(lines.count)")
        #expect(lines.first?.contains("capture_error") == true, "\(lines.first ?? "")")
    }
}
