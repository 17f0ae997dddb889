import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

@Suite struct UserStoreTests {
    private func report(input: String, codes: [String] = ["E102", "E330"]) -> ScanReport {
        let findings = codes.map { code in
            Finding(code: ECode(code)!, name: code, badge: code == "E102" ? .red : .green, matchedText: [code],
                    matchKind: .code, function: nil, risk: "", audience: [], diet: Dietary(), reasons: [],
                    statement: nil, references: [])
        }
        return ScanReport(input: input, region: .eu, versions: DataVersions(dataVersion: "2026.11.21", packVersion: "1.0.0"),
                          additives: findings, unmatched: ["E999"])
    }

    /// 50 writers open a history file that does not exist yet and save ten scans each, all at
    /// once (threads with their own connections: SQLite locks between them as between processes).
    @Test func fiftyWritersAtOnceLoseNothing() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        let r = report(input: "E330", codes: ["E330"])
        let gate = DispatchGroup(), done = DispatchGroup()
        let failures = NSLock()
        nonisolated(unsafe) var errors: [String] = []
        gate.enter()
        for _ in 0..<50 {
            done.enter()
            Thread {
                gate.wait()
                do {
                    let store = try UserStore(location: location)
                    for _ in 0..<10 { _ = try store.recordScan(r) }
                } catch {
                    failures.lock()
                    errors.append("\(error)")
                    failures.unlock()
                }
                done.leave()
            }.start()
        }
        gate.leave()
        done.wait()
        #expect(errors.isEmpty, "\(errors.count) writers failed, first: \(errors.first ?? "")")
        let saved = try UserStore(location: location).history(limit: 1_000).count
        print("fiftyWritersAtOnceLoseNothing: \(saved) of 500 saved")
        #expect(saved == 500)
    }

    /// History is kept to the newest 1,000 scans within a year (docs/reliability.md).
    @Test func historyKeepsTheNewestThousandWithinAYear() throws {
        let scratch = try Fixtures.Scratch()
        let store = try UserStore(location: scratch.location)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let r = report(input: "E330", codes: ["E330"])
        let ancient = try store.recordScan(r, at: start.addingTimeInterval(-400 * 86_400))
        let ids = try (0..<1_005).map { try store.recordScan(r, at: start.addingTimeInterval(Double($0))) }
        let kept = try store.history(limit: 5_000).map(\.id)
        #expect(kept.count == 1_000)
        #expect(kept.first == ids.last)
        #expect(kept.last == ids[5])
        #expect(try store.historyEntry(id: ancient) == nil, "a scan older than a year is gone")
    }

    @Test func historyRoundTrip() throws {
        let scratch = try Fixtures.Scratch()
        let store = try UserStore(location: scratch.location)
        let first = report(input: "/home/ann/Pictures/candy.jpg")
        let json = JSONRenderer.render(first)
        let id1 = try store.recordScan(first, at: Date(timeIntervalSince1970: 1_000))
        let id2 = try store.recordScan(report(input: "text", codes: ["E951"]),
                                       at: Date(timeIntervalSince1970: 2_000))

        let history = try store.history(limit: 10)
        #expect(history.map(\.id) == [id2, id1])
        let entry = try #require(try store.historyEntry(id: id1))
        #expect(entry.input == "candy.jpg")
        #expect(entry.region == "EU")
        #expect(entry.codes == ["E102", "E330"])
        #expect((entry.flagged, entry.neutral, entry.unmatched) == (1, 1, 1))
        #expect(entry.dataVersion == "2026.11.21")
        #expect(entry.scannedAt == Date(timeIntervalSince1970: 1_000))
        // The result shows again exactly as printed, except that the path became the file name.
        #expect(entry.json == json.replacingOccurrences(of: "/home/ann/Pictures/candy.jpg", with: "candy.jpg"))
        #expect(!entry.json.contains("/home/ann"))
        #expect(try store.history(limit: 1).map(\.id) == [id2])
        #expect(try store.historyEntry(id: 9999) == nil)

        try store.clearHistory()
        #expect(try store.history().isEmpty)
    }

    @Test(arguments: [
        ("/home/ann/Pictures/label.JPG", "label.JPG"),
        ("label.png", "label.png"),
        ("Sugar, glucose syrup, colour: E102, E129", "text"),
        ("Zucker\nE330", "text"),
        ("text", "text"),
        ("-", "text"),
        ("e 120", "E120"),
    ])
    func historyKeepsNoIngredientTextOrPaths(input: String, label: String) throws {
        let scratch = try Fixtures.Scratch()
        let store = try UserStore(location: scratch.location)
        let r = report(input: input)
        let id = try store.recordScan(r)
        let entry = try #require(try store.historyEntry(id: id))
        #expect(entry.input == label)
        // The stored result is the report as rendered, with the label for its input.
        var shown = r
        shown.input = label
        #expect(entry.json == JSONRenderer.render(shown))
        #expect(entry.json.contains(#""input":"\#(label)""#))
        if label == "text" { #expect(!entry.json.contains("Sugar") && !entry.json.contains("Zucker")) }
        let raw = try Data(contentsOf: scratch.location.userPath)
        #expect(raw.range(of: Data("glucose syrup".utf8)) == nil)
        #expect(raw.range(of: Data("/home/ann".utf8)) == nil)
    }

    @Test func productCacheRoundTrip() throws {
        let scratch = try Fixtures.Scratch()
        let store = try UserStore(location: scratch.location)
        let product = CachedProduct(barcode: "4006381333931", ingredientsText: "Sugar, colour: E102",
                                    additivesFound: [ECode("E102")!, ECode("E160a(ii)")!],
                                    timestamp: Date(timeIntervalSince1970: 1_700_000_000.5), region: .uk)
        try store.cacheProduct(product)
        #expect(try store.cachedProduct(barcode: "4006381333931") == product)
        #expect(try store.cachedProduct(barcode: "0000000000000") == nil)
        var updated = product
        updated.ingredientsText = "Sugar"
        updated.additivesFound = []
        try store.cacheProduct(updated)
        #expect(try store.cachedProduct(barcode: "4006381333931") == updated)
        // Constraints reject what is not a barcode.
        #expect(throws: HistoryError.self) {
            try store.cacheProduct(CachedProduct(barcode: "12ab", ingredientsText: "", additivesFound: [], region: .eu))
        }
    }

    @Test func migratesFromAnOlderVersionKeepingHistory() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        try FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
        // A file as version 1 left it: history only, no product cache.
        do {
            let old = try Connection(path: location.userPath.path, mode: .create)
            try old.migrate(Array(UserSchema.migrations.prefix(1)))
            #expect(try old.userVersion() == 1)
            try old.execute("""
                INSERT INTO scan_history (scanned_at, input_label, input_kind, region, codes, flagged, neutral, unmatched,
                                          data_version, pack_version, result_json)
                VALUES ('2026-01-02T03:04:05.000Z', 'old.jpg', 'image', 'EU', 'E102', 1, 0, 0, 'd', 'p', '{"input":"old.jpg"}')
                """)
        }
        let store = try UserStore(location: location)
        #expect(try Connection(path: location.userPath.path, mode: .readOnly).userVersion() == UserSchema.version)
        #expect(try store.history().map(\.input) == ["old.jpg"])
        try store.cacheProduct(CachedProduct(barcode: "12345678", ingredientsText: "x", additivesFound: [], region: .eu))
        #expect(try store.cachedProduct(barcode: "12345678") != nil)
    }

    @Test func aNewerUserFileIsALookupError() throws {
        let scratch = try Fixtures.Scratch()
        _ = try UserStore(location: scratch.location)
        try Connection(path: scratch.location.userPath.path, mode: .readWrite).setUserVersion(UserSchema.version + 1)
        let error = #expect(throws: HistoryError.self) { try UserStore(location: scratch.location) }
        #expect(caseName(error) == "newerSchema", "\(String(describing: error))")
    }

    @Test func aDamagedUserFileCanBeSetAside() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        try FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 8192).write(to: location.userPath)
        let error = #expect(throws: HistoryError.self) { try UserStore(location: location) }
        #expect(caseName(error) == "damaged", "\(String(describing: error))")
        let aside = try #require(try UserStore.setAside(location: location))
        #expect(FileManager.default.fileExists(atPath: aside.path))
        #expect(try UserStore(location: location).history().isEmpty)
    }

    @Test func aReadOnlyUserFileStillShowsHistory() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        let store = try UserStore(location: location)
        let r = report(input: "a.jpg")
        _ = try store.recordScan(r)
        chmod(location.userPath.path, 0o444)
        chmod(location.directory.path, 0o555)
        #expect(try UserStore(location: location).history().count == 1)
    }

    @Test(.disabled(if: getuid() == 0, "root ignores permission bits"))
    func savingToAReadOnlyUserFileIsALookupError() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        _ = try UserStore(location: location)
        chmod(location.userPath.path, 0o444)
        let store = try UserStore(location: location)
        let r = report(input: "a.jpg")
        let error = #expect(throws: HistoryError.self) { try store.recordScan(r) }
        #expect(error?.errorClass == .lookup)
    }
}
