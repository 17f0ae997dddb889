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
        let view = try #require(dom.firstMatch(of: /<image width="(\d+)" height="(\d+)"/))
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

    /// Lays `page` out in Chromium in a frame `width` px wide and returns what a small script
    /// measured there (the page itself has no script; `--window-size` alone cannot go below 500 px).
    func layout(of page: String, width: Int) throws -> [String: Any] {
        let source = String(decoding: try JSONSerialization.data(withJSONObject: [page]), as: UTF8.self)
        let probe = """
            <!DOCTYPE html><html><body style="margin:0">
            <iframe id="f" style="border:0;width:\(width)px;height:2000px"></iframe><pre id="layout"></pre>
            <script>
            const f = document.getElementById('f');
            f.onload = () => {
              const d = f.contentDocument, w = f.contentWindow;
              const top = e => e ? Math.round(e.getBoundingClientRect().top + w.scrollY) : -1;
              const numbers = [...d.querySelectorAll('text.number')].map(t => { const b = t.getBBox(); return b.x + b.width; });
              const words = [...d.querySelectorAll('rect.found')];
              document.getElementById('layout').textContent = JSON.stringify({
                scrollWidth: d.scrollingElement.scrollWidth, innerWidth: w.innerWidth,
                card: top(d.querySelector('article')), photo: top(d.querySelector('figure')),
                badges: [...d.querySelectorAll('article .badge')].map(b => b.className.replace('badge badge-', '')),
                title: d.title, heading: d.querySelector('h1').textContent,
                numbers: numbers.length, numberRight: Math.max(-100000, ...numbers),
                filled: words.filter(r => r.getAttribute('fill') !== 'none').length, words: words.length });
            };
            f.srcdoc = \(source)[0];
            </script></body></html>
            """
        let url = scan.dataDir.appendingPathComponent("probe-\(width).html")
        try probe.write(to: url, atomically: true, encoding: .utf8)
        let dom = try runChromium(["--window-size=\(max(width, 800)),2200", "--dump-dom", url.absoluteString])
        let json = try #require(dom.firstMatch(of: /<pre id="layout">([^<]+)<\/pre>/), "no measurement in \(dom.prefix(300))")
        return try #require(try JSONSerialization.jsonObject(with: Data(String(json.1).utf8)) as? [String: Any])
    }

    /// On a phone (390 px) and a desktop (1200 px): the heading names the file, not its folders;
    /// nothing scrolls sideways; counts by badge, then red, yellow and green cards come before the
    /// photo; outlines never fill over words and the numbers stand beside the photo, not on it.
    @Test func aPhonePageShowsCardsFirstAndNeverScrollsSideways() throws {
        let folder = scan.dataDir.appendingPathComponent("AFolderNameFarTooLongForAPhoneScreenToShowOnOneLine/photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let frame = folder.appendingPathComponent("g0589.jpg")
        try FileManager.default.copyItem(atPath: ScanBinary.path("goldset/synth/g0589.jpg"), toPath: frame.path)
        let run = try scan.run([frame.path, "--region", "EU", "--format", "html"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("<ul class=\"counts\""))
        let page = scan.dataDir.appendingPathComponent("phone.html")
        try run.stdout.write(to: page, atomically: true, encoding: .utf8)
        for width in [390, 1200] {
            let m = try layout(of: run.stdout, width: width)
            #expect(m["innerWidth"] as? Int == width, "\(m)")
            #expect((m["scrollWidth"] as? Int ?? .max) <= width, "sideways scrolling at \(width) px: \(m)")
            #expect(m["title"] as? String == "Ecodex: g0589.jpg")
            #expect((m["heading"] as? String)?.hasPrefix("g0589.jpg: ") == true, "\(m)")
            let card = m["card"] as? Int ?? .max, photo = m["photo"] as? Int ?? -1
            #expect(card >= 0 && card < photo, "first card at \(card), photo at \(photo), \(width) px")
            let badges = m["badges"] as? [String] ?? []
            let rank = ["red": 0, "yellow": 1, "green": 2]
            #expect(badges.count >= 3 && badges.map { rank[$0] ?? 9 } == badges.map { rank[$0] ?? 9 }.sorted(), "\(badges)")
            #expect((m["words"] as? Int ?? 0) >= 3 && m["filled"] as? Int == 0, "\(m)")
            #expect((m["numbers"] as? Int ?? 0) >= 3 && (m["numberRight"] as? Double ?? 1) <= 0, "a number lies on the photo: \(m)")
            // Painted to pixels at that width; kept outside git when ECODEX_KEEP_SCREENSHOTS names a folder.
            let shot = scan.dataDir.appendingPathComponent("phone-\(width).png")
            _ = try runChromium(["--screenshot=\(shot.path)", "--window-size=\(width),2000", "--hide-scrollbars", page.absoluteString])
            let png = try Data(contentsOf: shot)
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000)
            if let keep = ProcessInfo.processInfo.environment["ECODEX_KEEP_SCREENSHOTS"] {
                try png.write(to: URL(fileURLWithPath: keep).appendingPathComponent("report-\(width).png"))
            }
        }
    }
}
