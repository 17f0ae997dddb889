import Foundation
import Testing
@testable import EcodexCore

/// The text and HTML renderers over a few fixed reports, compared with the files in
/// `Snapshots/`. `ECODEX_RECORD_SNAPSHOTS=1` writes the files again instead (then read the diff).
@Suite struct RendererSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// Reports that between them show every badge, a warning, each read status, compared
    /// regions, a product found by barcode and a photo with outlined words.
    static func reports() throws -> [(name: String, report: ScanReport)] {
        let text = try ScanPipeline(catalog: TestRecords.catalog)
        var badges = try text.scan(.text("Sugar, colours: E102, E129, sweetener: aspartame, acid: E330, E999",
                                             label: "labels/candy.jpg"), options: ScanOptions(preferences: Preferences(region: .eu)))
        badges.additives[0].audience = ["Kids"]
        let unread = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("water salt", confidence: 30))
            .scan(.image(path: "blurred.jpg"), options: ScanOptions())
        let partly = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Sugar, E330, E102", confidence: 90, timedOut: true))
            .scan(.image(path: "cut.jpg"), options: ScanOptions())
        let compare = try text.scan(.text("E102, E171"), options: ScanOptions(compareRegions: Region.allCases))
        let product = try ScanPipeline(catalog: TestRecords.catalog, products: FakeProducts(["4006381333931": "Sugar, E102, E330"]))
            .scan(.barcodeDigits("4006381333931"), options: ScanOptions(preferences: Preferences(region: .us)))
        var photo = badges
        photo.input = "/home/shopper/Pictures/label.jpg"
        photo.photo = PhotoView(preview: PhotoPreview(jpeg: [0xFF, 0xD8, 0xFF, 0xD9], width: 600, height: 400, scale: 0.5),
                                marks: [.init(number: 1, code: ECode("E102")!, boxes: [BoundingBox(x: 100, y: 100, width: 60, height: 20)]),
                                        .init(number: 2, code: ECode("E129")!, boxes: [BoundingBox(x: 200, y: 100, width: 60, height: 20)]),
                                        .init(number: 3, code: ECode("E951")!, boxes: [BoundingBox(x: 0, y: 390, width: 80, height: 10)]),
                                        .init(number: 4, code: ECode("E330")!, boxes: [])],
                                unsure: [BoundingBox(x: 300, y: 150, width: 40, height: 20)])
        return [("badges", badges), ("unreadable", unread), ("partly-read", partly), ("compare", compare), ("product", product), ("photo", photo)]
    }

    @Test func textRendererMatchesItsSnapshots() throws {
        for (name, report) in try Self.reports() {
            try assertSnapshot(TextRenderer().render(report) + "\n", named: "\(name).txt")
        }
    }

    @Test func htmlRendererMatchesItsSnapshots() throws {
        for (name, report) in try Self.reports() {
            try assertSnapshot(HTMLRenderer.render([report]), named: "\(name).html")
        }
        let all = try Self.reports().map(\.report)
        try assertSnapshot(HTMLRenderer.render(Array(all.prefix(2))), named: "two-reports.html")
    }

    /// The fixed reports really cover what the snapshots claim to show.
    @Test func theReportsCoverEveryCase() throws {
        let all = try Self.reports().map(\.report)
        #expect(Set(all.flatMap { $0.additives.map(\.badge) }) == Set(Badge.allCases))
        #expect(Set(all.map(\.status)) == Set(ReadStatus.allCases))
        #expect(all.contains { !$0.warnings.isEmpty } && all.contains { $0.barcode != nil } && all.contains { $0.photo != nil })
        #expect(all.contains { $0.additives.contains { !$0.regionBadges.isEmpty } } && all.contains { !$0.unmatched.isEmpty })
    }

    func assertSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = Self.folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["ECODEX_RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no snapshot \(name): run with ECODEX_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        if actual != expected {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false), e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(a.count, e.count)).first { a[$0] != e[$0] } ?? min(a.count, e.count)
            Issue.record("""
                \(name) differs from its snapshot at line \(line + 1) (ECODEX_RECORD_SNAPSHOTS=1 records it again):
                  expected: \(line < e.count ? String(e[line]) : "<end>")
                  actual:   \(line < a.count ? String(a[line]) : "<end>")
                """, sourceLocation: sourceLocation)
        }
    }
}
