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
    ]

    public static func render(_ reports: [ScanReport]) -> String {
        let colors = Dictionary(uniqueKeysWithValues: colorPairs.map { ($0.name, ($0.fg, $0.bg)) })
        func css(_ n: String) -> (String, String) { colors[n]! }
        var h = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Ecodex results</title>
            <style>
            body { font: 1rem/1.5 system-ui, sans-serif; color: \(css("body").0); background: \(css("body").1); margin: 0 auto; max-width: 46rem; padding: 1rem; }
            h1 { font-size: 1.5rem; } h2 { font-size: 1.25rem; margin: 0; }
            .muted { color: \(css("muted").0); }
            a { color: \(css("link").0); }
            .note { background: \(css("note").1); color: \(css("note").0); padding: .5rem .75rem; border-radius: .25rem; }
            article { border: 1px solid #8a8a8a; border-radius: .5rem; padding: .75rem 1rem; margin: 1rem 0; }
            .badge { display: inline-block; font-weight: 700; padding: .1rem .6rem; border-radius: 1rem; }
            .badge-red { color: \(css("red").0); background: \(css("red").1); }
            .badge-yellow { color: \(css("yellow").0); background: \(css("yellow").1); }
            .badge-green { color: \(css("green").0); background: \(css("green").1); }
            footer { margin-top: 2rem; border-top: 1px solid #8a8a8a; padding-top: .5rem; }
            </style>
            </head>
            <body>
            <main>

            """
        for r in reports {
            let s = r.summary
            h += "<section aria-labelledby=\"\(id(r.input))\">\n"
            h += "<h1 id=\"\(id(r.input))\">\(esc(r.input)): \(s.flagged) flagged, \(s.neutral) neutral"
            h += s.unmatched > 0 ? ", \(s.unmatched) unmatched</h1>\n" : "</h1>\n"
            for w in r.warnings { h += "<p class=\"note\" role=\"note\">\(esc(w))</p>\n" }
            for f in r.additives {
                h += "<article aria-labelledby=\"\(id(r.input + f.code.description))\">\n"
                h += "<h2 id=\"\(id(r.input + f.code.description))\">\(esc(f.name)) (\(esc(f.code.description)))</h2>\n"
                h += "<p><span class=\"badge badge-\(f.badge.rawValue)\"><span aria-hidden=\"true\">\(f.badge.symbol) </span>\(f.badge.label)</span>"
                if let fn = f.function { h += " <span class=\"muted\">\(esc(fn))</span>" }
                h += "</p>\n<p>\(esc(f.risk))</p>\n"
                h += "<ul>\n" + f.reasons.map { "<li>\(esc($0))</li>\n" }.joined() + "</ul>\n"
                if !f.audience.isEmpty { h += "<p>For: \(esc(f.audience.joined(separator: ", ")))</p>\n" }
                let diet = TextRenderer().dietMarks(f.diet)
                if !diet.isEmpty { h += "<p>Diet: \(esc(diet))</p>\n" }
                h += "<p class=\"muted\">Found as: \(esc(f.matchedText.joined(separator: ", ")))</p>\n"
                if !f.references.isEmpty {
                    h += "<details><summary>Why: references</summary><ul>\n"
                    h += f.references.map { ref in
                        href(ref.url).map { "<li><a href=\"\($0)\">\(esc(ref.label))</a></li>\n" }
                            ?? "<li>\(esc(ref.label)) (\(esc(ref.url)))</li>\n"
                    }.joined()
                    h += "</ul></details>\n"
                }
                h += "</article>\n"
            }
            if !r.unmatched.isEmpty {
                h += "<p>Not in the additive list: \(esc(r.unmatched.joined(separator: ", ")))</p>\n"
            }
            h += "<p class=\"muted\">Region \(r.region.rawValue) (\(esc(r.region.displayName))) · data \(esc(r.dataVersion)) · pack \(esc(r.packVersion))</p>\n"
            h += "</section>\n"
        }
        h += "</main>\n<footer><p>\(TextRenderer.disclaimer)</p></footer>\n</body>\n</html>\n"
        return h
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
