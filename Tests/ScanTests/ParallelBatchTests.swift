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
            return "\(r["input"] ?? "") \(additives) \(r["warnings"] ?? []) \(r["unmatched"] ?? [])"
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
}
