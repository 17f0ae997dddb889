import Foundation
import Testing

/// What the text shows about regions reaches JSON and HTML too: `--compare`, the record of
/// `scan code`, and the counts by badge; and a photo from standard input is named "stdin".
extension HTMLReportTests {
    /// `--compare EU,US` gives each card a small table of its badge per region, which fits a phone.
    @Test func compareShowsInTheHTMLAndFitsAPhone() throws {
        let run = try scan.run(["text", "Sugar, colours: E102, E129, acid: E330", "--region", "EU", "--compare", "EU,US", "--format", "html"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "<table class=\"compare\">").count - 1 == 3)
        #expect(run.stdout.contains("<caption>E102 by region</caption>"))
        #expect(run.stdout.contains("<th scope=\"row\"><abbr title=\"United States\">US</abbr></th>"))
        let m = try layout(of: run.stdout, width: 390)
        #expect((m["scrollWidth"] as? Int ?? .max) <= 390, "sideways scrolling at 390 px: \(m)")
    }

    /// `scan code E120 --format html` shows the six regions' rules the text shows, on a phone too.
    @Test func codeShowsTheRecordOfEveryRegionInTheHTML() throws {
        let run = try scan.run(["code", "E120", "--format", "html"])
        #expect(run.status == 0, "\(run.stderr)")
        let table = try #require(run.stdout.firstMatch(of: /<table class="record">[\s\S]*?<\/table>/).map { String($0.0) })
        #expect(table.components(separatedBy: "<th scope=\"row\">").count - 1 == 6, "\(table)")
        for region in ["EU", "US", "UK", "CA", "AU", "IN"] { #expect(table.contains(">\(region)</abbr></th>"), "\(region)") }
        #expect(table.contains("<a href=\"https://"), "no reference link: \(table)")
        let m = try layout(of: run.stdout, width: 390)
        #expect((m["scrollWidth"] as? Int ?? .max) <= 390, "sideways scrolling at 390 px: \(m)")
    }
}

@Suite struct RegionOutputTests {
    /// `scan code E120 --format json` carries the record: every region's rule on the scan's day.
    @Test func codeJSONCarriesTheRecord() throws {
        let scan = ScanBinary()
        let run = try scan.run(["code", "E120", "--format", "json", "--as-of", "2026-01-01"])
        #expect(run.status == 0, "\(run.stderr)")
        try JSONContractTests.validate("scanResult", run.stdout)
        let record = try #require(run.jsonLines().first?["record"] as? [String: Any], "\(run.stdout.prefix(300))")
        #expect(record["code"] as? String == "E120")
        let regions = try #require(record["regions"] as? [String: [String: Any]])
        #expect(Set(regions.keys) == ["EU", "US", "UK", "CA", "AU", "IN"])
        for (region, rule) in regions {
            #expect(rule["approved"] is Bool && rule["warningRequired"] is Bool, "\(region)")
            #expect((rule["reference"] as? [String: Any])?["url"] is String, "\(region): no reference")
        }
        // A scan result of any other command has no record.
        let text = try scan.run(["text", "E120", "--format", "json"])
        #expect(text.jsonLines().first?["record"] == nil)
    }

    /// The summary counts cards by badge in the cards' words; flagged and neutral stay for now.
    @Test func summaryCountsRedYellowGreen() throws {
        let scan = ScanBinary()
        let run = try scan.run(["text", "Sugar, colours: E102, E129, acid: E330", "--region", "EU", "--format", "json"])
        try JSONContractTests.validate("scanResult", run.stdout)
        let line = try #require(run.jsonLines().first)
        #expect(line["schemaVersion"] as? String == "1.2")
        let summary = try #require(line["summary"] as? [String: Int])
        #expect(summary == ["red": 2, "yellow": 0, "green": 1, "flagged": 2, "neutral": 1, "unmatched": 0], "\(summary)")
    }

    /// `scan -` names its result "stdin", not the temporary copy the photo was saved to.
    @Test func aPhotoFromStandardInputIsNamedStdin() throws {
        let scan = ScanBinary()
        let photo = try Data(contentsOf: URL(fileURLWithPath: ScanBinary.path("samples/carmine-label.jpg")))
        let run = try scan.run(["-", "--format", "json"], stdin: photo, timeout: 300)
        #expect(run.status == 0, "\(run.stderr)")
        try JSONContractTests.validate("scanResult", run.stdout)
        #expect(run.jsonLines().first?["input"] as? String == "stdin", "\(run.stdout.prefix(300))")
        let text = try scan.run(["-"], stdin: photo, timeout: 300)
        #expect(!text.stdout.contains("ecodex-stdin-"), "\(text.stdout.prefix(300))")
    }
}
