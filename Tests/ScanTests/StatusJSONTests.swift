import Foundation
import Testing

/// `scan pack status` and the `products` commands print JSON of the contract (validated
/// against the committed schema) and refuse HTML as a usage error.
@Suite struct StatusJSONTests {
    @Test func packStatusIsInTheSchemaAndRefusesHTML() throws {
        let scan = ScanBinary()
        let run = try scan.run(["pack", "status", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        try JSONContractTests.validate("packStatus", run.stdout)
        #expect(run.jsonLines().first?["schemaVersion"] as? String == "1.2")
        let html = try scan.run(["pack", "status", "--format", "html"])
        #expect(html.status == 64, "\(html.stdout)")
        #expect(html.stdout.isEmpty)
    }

    @Test func productsImportAndStatusAreInTheSchemaAndRefuseHTML() throws {
        let scan = ScanBinary()
        let empty = try scan.run(["products", "status", "--format", "json"])
        #expect(empty.status == 0, "\(empty.stderr)")
        try JSONContractTests.validate("productsStatus", empty.stdout)
        let file = scan.dataDir.appendingPathComponent("products.jsonl")
        try Data("{\"code\": \"4006381333931\", \"ingredients_text\": \"sugar, E330\"}\nnot json\n".utf8).write(to: file)
        let imported = try scan.run(["products", "import", file.path, "--format", "json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        try JSONContractTests.validate("productsImport", imported.stdout)
        let line = try #require(imported.jsonLines().first)
        #expect(line["imported"] as? Int == 1 && (line["skipped"] as? [String: Int])?["unreadable"] == 1, "\(line)")
        let status = try scan.run(["products", "status", "--format", "json"])
        try JSONContractTests.validate("productsStatus", status.stdout)
        #expect((status.jsonLines().first?["imported"] as? [String: Any])?["products"] as? Int == 1)
        for arguments in [["products", "status", "--format", "html"], ["products", "import", file.path, "--format", "html"]] {
            let html = try scan.run(arguments)
            #expect(html.status == 64 && html.stdout.isEmpty, "\(arguments): \(html.stdout)")
        }
    }
}
