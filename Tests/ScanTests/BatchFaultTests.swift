import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `scan batch` under faults: a huge file in the manifest.
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
}
