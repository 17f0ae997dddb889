import Foundation

/// Renders reports as one self-contained, accessible HTML page (no scripts, no external files).
///
/// Reading order for screen readers follows the visual order: summary, warnings,
/// one article per additive (name, badge as text, plain line, reasons, references),
/// then the footer. Colour never carries meaning alone: every badge has a word and a symbol.
public enum HTMLRenderer {
    /// Foreground/background pairs used on the page; each must reach 4.5:1 contrast (WCAG AA).
    public static let colorPairs: [(name: String, fg: String, bg: String)] = [
        ("body", "#1a1a1a", "#ffffff"),
        ("muted", "#4a4a4a", "#ffffff"),
        ("link", "#0b57d0", "#ffffff"),
        ("red", "#ffffff", "#b3261e"),
        ("yellow", "#1a1a1a", "#f9d65c"),
        ("green", "#ffffff", "#1e6b34"),
        ("note", "#1a1a1a", "#fff4d6"),
        ("number", "#ffffff", "#0b57d0"),
    ]

    /// `record` (`scan code`) adds the additive's rules in every region on `day` after its card.
    public static func render(_ reports: [ScanReport], record: Additive? = nil, on day: CalendarDay = .today()) -> String {
        let colors = Dictionary(uniqueKeysWithValues: colorPairs.map { ($0.name, ($0.fg, $0.bg)) })
        func css(_ n: String) -> (String, String) { colors[n]! }
        let title = reports.count == 1 ? "Ecodex: " + shortName(reports[0].input) : "Ecodex: \(reports.count) results"
        var h = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(esc(title))</title>
            <style>
            body { font: 1rem/1.5 system-ui, sans-serif; color: \(css("body").0); background: \(css("body").1); margin: 0 auto; max-width: 46rem; padding: 1rem; overflow-wrap: anywhere; }
            h1 { font-size: 1.35rem; } h2 { font-size: 1.2rem; margin: 0; }
            .muted { color: \(css("muted").0); }
            a { color: \(css("link").0); }
            .note { background: \(css("note").1); color: \(css("note").0); padding: .5rem .75rem; border-radius: .25rem; }
            .counts { display: flex; flex-wrap: wrap; gap: .5rem; padding: 0; margin: .5rem 0; list-style: none; }
            article { border: 1px solid #8a8a8a; border-radius: .5rem; padding: .75rem 1rem; margin: 1rem 0; }
            article ul { padding-left: 1.25rem; }
            .badge { display: inline-block; font-weight: 700; padding: .1rem .6rem; border-radius: 1rem; }
            .badge-red { color: \(css("red").0); background: \(css("red").1); }
            .badge-yellow { color: \(css("yellow").0); background: \(css("yellow").1); }
            .badge-green { color: \(css("green").0); background: \(css("green").1); }
            footer { margin-top: 2rem; border-top: 1px solid #8a8a8a; padding-top: .5rem; }
            figure { margin: 1rem 0; } figure svg { display: block; width: 100%; height: auto; border: 1px solid #8a8a8a; }
            table { border-collapse: collapse; margin: .5rem 0; } caption { text-align: left; font-weight: 700; }
            th, td { border: 1px solid #8a8a8a; padding: .15rem .4rem; text-align: left; vertical-align: top; } thead th { white-space: nowrap; }
            .num { display: inline-block; min-width: 1.6rem; text-align: center; font-weight: 700; color: \(css("number").0); background: \(css("number").1); border-radius: 1rem; margin-right: .4rem; }
            </style>
            </head>
            <body>
            <main>

            """
        for r in reports {
            // Red cards first, then yellow, then green, each kind in ingredient order.
            let cards = r.additives.enumerated().sorted { ($0.element.badge, $1.offset) > ($1.element.badge, $0.offset) }.map(\.element)
            let numbers = Dictionary(cards.enumerated().map { ($0.element.code, $0.offset + 1) }, uniquingKeysWith: { a, _ in a })
            h += "<section aria-labelledby=\"\(id(r.input))\">\n"
            h += "<h1 id=\"\(id(r.input))\">\(esc(shortName(r.input))): \(esc(TextRenderer.headline(r)))</h1>\n"
            if !cards.isEmpty {
                h += "<ul class=\"counts\" aria-hidden=\"true\">" + Badge.allCases.reversed().map { badge in
                    "<li><span class=\"badge badge-\(badge.rawValue)\">\(badge.symbol) \(cards.filter { $0.badge == badge }.count) \(badge.label)</span></li>"
                }.joined() + "</ul>\n"
            }
            for w in r.warnings { h += "<p class=\"note\" role=\"note\">\(esc(w.message))</p>\n" }
            for (n, f) in cards.enumerated() {
                h += card(f, number: r.photo == nil ? nil : n + 1, input: r.input)
            }
            if let record { h += RecordHTML.table(record, on: day) }
            if !r.unmatched.isEmpty {
                h += "<p>Not in the additive list: \(esc(r.unmatched.joined(separator: ", ")))</p>\n"
            }
            // The photo comes after the cards: on a phone it would push the first card off the screen.
            if let photo = r.photo { h += figure(photo, input: r.input, numbers: numbers) }
            h += "<p class=\"muted\">Region \(r.region.rawValue) (\(esc(r.region.displayName))) · data \(esc(r.dataVersion)) · pack \(esc(r.packVersion))</p>\n"
            h += "</section>\n"
        }
        h += "</main>\n<footer><p>\(TextRenderer.disclaimer)</p></footer>\n</body>\n</html>\n"
        return h
    }

    /// One additive's card: name, badge as text, plain line, reasons, audience, diet, references.
    static func card(_ f: Finding, number: Int?, input: String) -> String {
        var h = "<article aria-labelledby=\"\(id(input + f.code.description))\">\n"
        let tag = number.map { "<span class=\"num\" aria-hidden=\"true\">\($0)</span>" } ?? ""
        h += "<h2 id=\"\(id(input + f.code.description))\">\(tag)\(esc(f.name)) (\(esc(f.code.description)))</h2>\n"
        h += "<p><span class=\"badge badge-\(f.badge.rawValue)\"><span aria-hidden=\"true\">\(f.badge.symbol) </span>\(f.badge.label)</span>"
        if let fn = f.function { h += " <span class=\"muted\">\(esc(fn))</span>" }
        h += "</p>\n<p>\(esc(f.risk))</p>\n"
        h += "<ul>\n" + f.reasons.map { "<li>\(esc($0))</li>\n" }.joined() + "</ul>\n"
        if let audience = TextRenderer.audienceLine(f.audience) { h += "<p>\(esc(audience))</p>\n" }
        let diet = TextRenderer().dietMarks(f.diet)
        if !diet.isEmpty { h += "<p>Diet: \(esc(diet))</p>\n" }
        h += "<p class=\"muted\">Found as: \(esc(f.matchedText.joined(separator: ", ")))</p>\n"
        h += RecordHTML.compare(f)
        if !f.references.isEmpty {
            h += "<details><summary>Why: references</summary><ul>\n"
            h += f.references.map { ref in
                href(ref.url).map { "<li><a href=\"\($0)\">\(esc(ref.citation))</a></li>\n" }
                    ?? "<li>\(esc(ref.citation)) (\(esc(ref.url)))</li>\n"
            }.joined()
            h += "</ul></details>\n"
        }
        return h + "</article>\n"
    }

    /// The photo (embedded, no external file) with each additive's words outlined in blue
    /// and numbered like its card; words read unsure are outlined with an orange dashed line.
    /// Outlines sit just outside each word and numbers in a strip left of the photo, so no
    /// mark covers a letter.
    static func figure(_ photo: PhotoView, input: String, numbers: [ECode: Int]) -> String {
        let p = photo.preview
        let found = photo.marks.filter { !$0.boxes.isEmpty }
        let stroke = max(1, min(p.width, p.height) / 300)
        // About 14 px on a phone screen, where the picture is shown some 360 px wide.
        let size = max(12, p.width / 24)
        let strip = found.isEmpty ? 0 : size * 3
        var svg = "<svg viewBox=\"\(-strip) 0 \(p.width + strip) \(p.height)\" role=\"img\" aria-labelledby=\"\(id("photo" + input))\">\n"
        if strip > 0 { svg += "<rect x=\"\(-strip)\" y=\"0\" width=\"\(strip)\" height=\"\(p.height)\" fill=\"#ffffff\"/>\n" }
        svg += "<image width=\"\(p.width)\" height=\"\(p.height)\" href=\"data:image/jpeg;base64,\(Data(p.jpeg).base64EncodedString())\"/>\n"
        // A word's box grown by `by` on each side, kept inside the picture.
        func around(_ b: BoundingBox, by: Int) -> BoundingBox {
            let x0 = max(0, b.x - by), y0 = max(0, b.y - by)
            return BoundingBox(x: x0, y: y0, width: min(p.width, b.x + b.width + by) - x0, height: min(p.height, b.y + b.height + by) - y0)
        }
        for u in photo.unsure {
            let b = around(u, by: stroke)
            svg += "<rect class=\"unsure\" x=\"\(b.x)\" y=\"\(b.y)\" width=\"\(b.width)\" height=\"\(b.height)\" fill=\"none\" stroke=\"#e8710a\" stroke-width=\"\(stroke)\" stroke-dasharray=\"\(stroke * 3)\"/>\n"
        }
        var labels: [(number: Int, x: Int, y: Int)] = []
        for m in found {
            let number = numbers[m.code] ?? m.number
            for w in m.boxes {
                let b = around(w, by: stroke + stroke / 2)
                svg += "<rect class=\"found\" data-number=\"\(number)\" x=\"\(b.x)\" y=\"\(b.y)\" width=\"\(b.width)\" height=\"\(b.height)\" fill=\"none\" stroke=\"#0b57d0\" stroke-width=\"\(stroke)\"/>\n"
            }
            labels.append((number, m.boxes[0].x, m.boxes[0].y + m.boxes[0].height / 2 + size / 3))
        }
        // Numbers in the strip, level with their first word; those of one line side by side, left to right.
        var last: (x: Int, y: Int, width: Int)?
        for l in labels.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
            let width = String(l.number).count * size * 3 / 5
            var x = -strip + size / 4, y = min(p.height - size / 4, max(size, l.y))
            if let prev = last, y - prev.y < size {
                x = prev.x + prev.width + size / 3
                y = prev.y
                if x + width > 0 { (x, y) = (-strip + size / 4, prev.y + size) }
            }
            last = (x, y, width)
            svg += "<text class=\"number\" x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" font-weight=\"700\" fill=\"#0b57d0\">\(l.number)</text>\n"
        }
        svg += "</svg>\n"
        var caption = found.isEmpty
            ? "The photo as read. No additive's words could be outlined."
            : "The photo as read. Blue boxes show the words of each additive; the numbers beside the photo match the cards."
        if !photo.unsure.isEmpty { caption += " Dashed orange boxes show words read with low confidence." }
        return "<figure>\n\(svg)<figcaption id=\"\(id("photo" + input))\">\(esc(caption))</figcaption>\n</figure>\n"
    }

    /// The input's file name without its folders, so a long path does not widen the page.
    static func shortName(_ input: String) -> String {
        guard let slash = input.lastIndex(of: "/"), input.index(after: slash) < input.endIndex else { return input }
        return String(input[input.index(after: slash)...])
    }

    /// WCAG 2.1 contrast ratio of two `#rrggbb` colours.
    public static func contrast(_ a: String, _ b: String) -> Double {
        func lum(_ hex: String) -> Double {
            let v = Int(hex.dropFirst(), radix: 16) ?? 0
            let ch = [(v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF].map { c -> Double in
                let s = Double(c) / 255
                return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
        }
        let (l1, l2) = (lum(a), lum(b))
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }

    /// Escapes text for HTML content and quoted attributes.
    ///
    /// Works on Unicode scalars, not `Character`s: `"` followed by a combining accent is one
    /// `Character` that compares unequal to `"`, yet the browser still reads the `"` scalar.
    /// Control characters other than tab and newline are dropped.
    package static func esc(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            switch u {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            case "\t", "\n": out.append(u)
            default:
                if u.value < 0x20 || (0x7F...0x9F).contains(u.value) { continue }
                out.append(u)
            }
        }
        return String(out)
    }

    /// A reference link's target: only http(s) addresses become links (never `javascript:`).
    static func href(_ url: String) -> String? {
        let lower = url.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://") ? esc(url) : nil
    }

    static func id(_ s: String) -> String {
        "r-" + String(s.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "-" })
    }
}
