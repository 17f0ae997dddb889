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
        #expect(dom.contains("2 red, 0 yellow, 1 green"))
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

    /// A photo's page shows the photo itself, embedded, with each additive's words outlined
    /// and numbered like its card; the browser lays the picture out at its real size.
    @Test func photoPageOutlinesTheWordsOfEachAdditive() throws {
        let frame = ScanBinary.path("goldset/synth/g0589.jpg")
        let run = try scan.run([frame, "--region", "EU", "--format", "html"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let page = scan.dataDir.appendingPathComponent("photo.html")
        try run.stdout.write(to: page, atomically: true, encoding: .utf8)
        let dom = try runChromium(["--dump-dom", page.absoluteString])
        // One embedded picture, no external file.
        #expect(dom.components(separatedBy: "href=\"data:image/jpeg;base64,").count == 2)
        #expect(!dom.contains("src=\"file:") && !dom.contains("href=\"file:"))
        // The cards are numbered 1, 2, 3…, and each number has at least one outlined word.
        let cards = dom.components(separatedBy: "<article").count - 1
        #expect(cards >= 3, "cards: \(cards)")
        for n in 1...cards {
            #expect(dom.contains("<span class=\"num\" aria-hidden=\"true\">\(n)</span>"), "card \(n) has no number")
            #expect(dom.contains("class=\"found\" data-number=\"\(n)\""), "card \(n) has no outlined word")
        }
        // Every outline lies inside the picture.
        let view = try #require(dom.firstMatch(of: /viewBox="0 0 (\d+) (\d+)"/))
        let (w, h) = (Int(view.1)!, Int(view.2)!)
        for m in dom.matches(of: /class="found" data-number="\d+" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"/) {
            let (x, y, bw, bh) = (Int(m.1)!, Int(m.2)!, Int(m.3)!, Int(m.4)!)
            #expect(x + bw <= w && y + bh <= h && bw > 0 && bh > 0 && bw < w / 2, "outline \(x),\(y) \(bw)×\(bh) in \(w)×\(h)")
        }
        #expect(dom.contains("<figcaption"))
    }

    /// Typed text has no photo: no figure, no card numbers.
    @Test func textPageHasNoPhoto() throws {
        let run = try scan.run(["text", "Sugar, colours: E102", "--format", "html"])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("<figure>") && !run.stdout.contains("class=\"num\""))
    }

    /// A burst's page shows the frame read best, with that frame's words outlined (`--time-limit 0`:
    /// both frames in full, however busy the machine).
    @Test func burstPageShowsTheBestFrame() throws {
        let frames = ["g0589", "g0589-b1"].map { ScanBinary.path("goldset/synth/\($0).jpg") }
        let run = try scan.run(["burst"] + frames + ["--time-limit", "0", "--region", "EU", "--format", "html"], timeout: 180)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "data:image/jpeg;base64,").count == 2)
        let cards = run.stdout.components(separatedBy: "<article").count - 1
        #expect(cards >= 3)
        for n in 1...max(1, cards) { #expect(run.stdout.contains("class=\"found\" data-number=\"\(n)\""), "card \(n)") }
    }
}
