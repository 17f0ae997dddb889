import Foundation
import Testing

/// The HTML report opened in a real headless browser.
@Suite struct HTMLReportTests {
    let scan = ScanBinary()

    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func runChromium(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(HTMLReportTests.chromium, "chromium missing: run scripts/install-deps.sh"))
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(scan.dataDir.path)/chrome"] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func pageRendersInChromiumWithTextBadges() throws {
        let run = try scan.run(["text", "Sugar, colours: E102, E129, acid: E330", "--region", "EU", "--format", "html"])
        #expect(run.status == 0, "\(run.stderr)")
        let page = scan.dataDir.appendingPathComponent("report.html")
        try run.stdout.write(to: page, atomically: true, encoding: .utf8)

        // The DOM after layout: the browser parsed the page and kept our structure.
        let dom = try runChromium(["--dump-dom", page.absoluteString])
        #expect(dom.contains("2 flagged, 1 neutral"))
        #expect(dom.contains("RED</span>"))
        #expect(dom.contains("GREEN</span>"))
        #expect(dom.contains("Informational only, not medical advice."))

        // A screenshot: the page painted to pixels (a blank or failed render is tiny).
        let shot = scan.dataDir.appendingPathComponent("report.png")
        _ = try runChromium(["--screenshot=\(shot.path)", "--window-size=800,1200", "--hide-scrollbars", page.absoluteString])
        let png = try Data(contentsOf: shot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 20_000, "screenshot is \(png.count) bytes")
        if let keep = ProcessInfo.processInfo.environment["ECODEX_KEEP_SCREENSHOT"] {
            try png.write(to: URL(fileURLWithPath: keep))
        }
    }
}
