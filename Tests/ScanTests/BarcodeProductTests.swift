import Foundation
import Testing

/// Runs `scan` under a wrapper (`strace`, `unshare`) with the same environment `ScanBinary` gives it.
func runWrapped(_ scan: ScanBinary, _ wrapper: [String], _ arguments: [String], environment extra: [String: String] = [:],
                timeout: TimeInterval = 60) throws -> ScanBinary.Run {
    try scan.run(arguments, environment: extra, timeout: timeout, wrapper: wrapper)
}

/// Writes a small Open Food Facts export into the scan's data folder and imports it.
func importProducts(_ scan: ScanBinary, _ text: String, name: String = "products.jsonl",
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let file = scan.dataDir.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    let run = try scan.run(["products", "import", file.path, "--format", "json"])
    #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    // No terminal here: no progress bar, nothing on standard error.
    #expect(run.stderr.isEmpty, "\(run.stderr)", sourceLocation: sourceLocation)
    return try #require(run.jsonLines().first, sourceLocation: sourceLocation)
}

/// Draws a barcode photo with Debian's zint (`-b 13` EAN, `-b 34` UPC-A).
func drawBarcode(_ symbology: Int, _ data: String, to path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard let tool = ["/usr/bin/zint", "/usr/local/bin/zint"].first(where: FileManager.default.isExecutableFile) else {
        Issue.record("zint is not installed; run the project setup (apt-get install zint).", sourceLocation: sourceLocation)
        throw CancellationError()
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: tool)
    p.arguments = ["-b", String(symbology), "-d", data, "--scale=3", "--height=60", "-o", path]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    try #require(p.terminationStatus == 0, "zint failed for \(data)", sourceLocation: sourceLocation)
}

/// Barcode photos and typed barcodes found in an imported Open Food Facts export.
@Suite struct BarcodeProductTests {
    let scan = ScanBinary()

    static let export = """
        {"code":"4006381333931","product_name":"Fruit chews","ingredients_text":"Sugar, glucose syrup, colours: E102, E129, glazing agent: carnauba wax"}
        {"code":"0036000291452","product_name":"Cola","ingredients_text":"","ingredients_text_en":"Carbonated water, colour: E150d, acid: E330"}

        """

    @Test func importedProductIsFoundFromABarcodePhoto() throws {
        let summary = try importProducts(scan, Self.export)
        #expect(summary["imported"] as? Int == 2)
        #expect(summary["products"] as? Int == 2)
        let run = try scan.run([ScanBinary.path("samples/barcode-only.jpg"), "--format", "json"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        #expect(r["fallbackUsed"] as? Bool == true)
        #expect(r.codes.contains("E102"), "\(r.codes)")
        #expect(r.badge("E102") == "red")
        let warnings = warningMessages(r["warnings"]) ?? []
        #expect(warnings.contains { $0.contains("imported product list") && $0.contains("4006381333931") }, "\(warnings)")
    }

    @Test func upcAPhotoFindsTheEAN13Entry() throws {
        _ = try importProducts(scan, Self.export)
        let photo = scan.dataDir.appendingPathComponent("cola.png").path
        try drawBarcode(34, "03600029145", to: photo)
        let run = try scan.run(["barcode", photo, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        #expect(r.codes.contains("E150d"), "\(r.codes)")
        #expect(r.codes.contains("E330"), "\(r.codes)")
    }

    @Test func upcEPhotoFindsItsUPCAEntry() throws {
        _ = try importProducts(scan, #"{"code":"0042100005264","ingredients_text":"Water, colour: E150d"}"# + "\n")
        let photo = scan.dataDir.appendingPathComponent("small-pack.png").path
        try drawBarcode(37, "0425261", to: photo)
        let run = try scan.run(["barcode", photo, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.jsonLines().first?.codes == ["E150d"])
    }

    @Test func tabSeparatedExportAndStatus() throws {
        _ = try importProducts(scan, "code\tproduct_name\tingredients_text\n4006381333931\tChews\tSugar, E120\n",
                               name: "en.openfoodfacts.org.products.csv")
        let typed = try scan.run(["barcode", "4006381333931", "--format", "json"])
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(typed.jsonLines().first?.codes.contains("E120") == true)
        let status = try scan.run(["products", "status", "--format", "json"])
        #expect(status.status == 0, "\(status.stderr)")
        let s = try #require(status.jsonLines().first)
        let imported = s["imported"] as? [String: Any]
        #expect(imported?["products"] as? Int == 1)
        #expect(imported?["format"] as? String == "tsv")
        #expect(imported?["source"] as? String == "en.openfoodfacts.org.products.csv")
        #expect((s["online"] as? [String: Any])?["saved"] as? Bool == false)
        let text = try scan.run(["products", "status"])
        #expect(text.stdout.contains("Open Food Facts online: off"))
    }

    @Test func unknownBarcodeOfflinePromptsOnce() throws {
        _ = try importProducts(scan, Self.export)
        let run = try scan.run(["barcode", "5901234123457", "--format", "json"])
        #expect(run.status == 13)
        let r = try #require(run.jsonLines().first)
        #expect(r.errorClass == "lookup_error")
        let message = (r["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("--online") && message.contains("scan text"), "\(message)")
    }

    @Test func badImportFilesFailCleanly() throws {
        let notOFF = scan.dataDir.appendingPathComponent("list.tsv")
        try Data("name\tbrand\nx\ty\n".utf8).write(to: notOFF)
        let run = try scan.run(["products", "import", notOFF.path])
        #expect(run.status == 12, "\(run.stderr)")
        #expect(run.stderr.contains("parse_error"))
        let missing = try scan.run(["products", "import", scan.dataDir.appendingPathComponent("nope.jsonl").path])
        #expect(missing.status == 15, "\(missing.stderr)")
    }

    @Test func importReadsStandardInput() throws {
        let run = try scan.run(["products", "import", "-"], stdin: Data(Self.export.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("holds 2 products"), "\(run.stdout)")
    }
}
