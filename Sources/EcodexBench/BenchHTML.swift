import EcodexCore
import Foundation

/// Renders a bench run as one self-contained HTML page: inline SVG bar charts, tables,
/// and the worst false positives and misses with their images. No scripts, no network.
///
/// Every chart has a text title and description for screen readers and is followed by
/// the same numbers as a table, so nothing is only in the picture.
public enum BenchHTML {
    static let ecodexColor = "#1f5fa8"
    static let baselineColor = "#b35c00"

    /// The page. `image` returns the bytes of a gold-set image (by its truth path) to embed
    /// next to the worst cases; return nil to leave an image out.
    public static func render(_ r: BenchReport, image: (String) -> Data? = { _ in nil }) -> String {
        var h = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Ecodex gold-set bench</title>
            <style>
            body { font: 1rem/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 60rem; padding: 1rem; }
            table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
            th, td { border: 1px solid #8a8a8a; padding: .2rem .5rem; text-align: right; }
            th:first-child, td:first-child { text-align: left; }
            .pass { color: #1e6b34; font-weight: 700; } .fail { color: #b3261e; font-weight: 700; }
            .muted { color: #4a4a4a; }
            figure { margin: 1rem 0; } svg text { font: 12px system-ui, sans-serif; fill: #1a1a1a; }
            .case { display: flex; gap: 1rem; align-items: flex-start; border-top: 1px solid #8a8a8a; padding: .5rem 0; }
            .case img { max-width: 28rem; height: auto; border: 1px solid #8a8a8a; }
            </style>
            </head>
            <body>
            <main>
            <h1>Ecodex gold-set bench</h1>

            """
        h += "<p>\(r.images) images (\(esc(r.selection)))"
        if !r.missing.isEmpty { h += "; \(r.missing.count) listed images were missing and skipped" }
        h += ". Codes compare at E + number + letter; precision, recall and F1 are micro-averaged over (image, code) pairs.</p>\n"
        h += "<h2>Quality gates (clean-to-moderate images)</h2>\n<table>\n<tr><th scope=\"col\">gate</th><th scope=\"col\">measured</th><th scope=\"col\">target</th><th scope=\"col\">result</th></tr>\n"
        for g in r.gateResults {
            h += "<tr><td>\(esc(g.name))</td><td>\(esc(g.value))</td><td>\(esc(g.target))</td>"
            h += "<td class=\"\(g.pass ? "pass" : "fail")\">\(g.pass ? "pass" : "fail")</td></tr>\n"
        }
        h += "</table>\n"
        h += "<h2>Summary</h2>\n" + summaryTable(r)
        let conditions = BenchReport.ordered(r.ecodex.byCondition.keys, BenchReport.conditionOrder)
        let languages = BenchReport.ordered(r.ecodex.byLanguage.keys, BenchReport.languageOrder)
        h += "<h2>E-code F1 by condition</h2>\n"
        h += chart(id: "f1-cond", title: "E-code F1 by condition", rows: conditions.map { c in
            (c, r.ecodex.byCondition[c]!.codeF1, r.baseline?.byCondition[c]?.codeF1)
        })
        h += breakdownTable("condition", conditions, r.ecodex.byCondition, r.baseline?.byCondition)
        h += "<h2>E-code F1 by language</h2>\n"
        h += chart(id: "f1-lang", title: "E-code F1 by language", rows: languages.map { l in
            (l, r.ecodex.byLanguage[l]!.codeF1, r.baseline?.byLanguage[l]?.codeF1)
        })
        h += breakdownTable("language", languages, r.ecodex.byLanguage, r.baseline?.byLanguage)
        h += "<h2>Synonym recall by condition</h2>\n"
        h += "<p class=\"muted\">Additives the label writes only as names. The baseline reads no names, so it finds none.</p>\n"
        let named = conditions.filter { r.ecodex.byCondition[$0]!.names.fn + r.ecodex.byCondition[$0]!.names.tp > 0 }
        h += chart(id: "syn-cond", title: "Synonym recall by condition", rows: named.map { c in
            (c, r.ecodex.byCondition[c]!.synonymRecall, r.baseline?.byCondition[c]?.synonymRecall)
        })
        h += "<h2>Time to result</h2>\n" + timeTable(r)
        h += "<h2>Worst false positives</h2>\n" + cases(r.ecodex.worstFalsePositives, "reported but not on the label", image)
        h += "<h2>Most missed printed codes</h2>\n" + cases(r.ecodex.worstMissedCodes, "printed but not found", image)
        h += "<h2>Most missed names</h2>\n" + cases(r.ecodex.worstMissedNames, "named but not found", image)
        h += "<h2>Systems</h2>\n<dl>\n"
        for (k, v) in r.systems.sorted(by: { $0.key < $1.key }) { h += "<dt>\(esc(k))</dt><dd>\(esc(v))</dd>\n" }
        for (k, v) in r.environment.sorted(by: { $0.key < $1.key }) { h += "<dt>\(esc(k))</dt><dd>\(esc(v))</dd>\n" }
        h += "</dl>\n</main>\n</body>\n</html>\n"
        return h
    }

    static func summaryTable(_ r: BenchReport) -> String {
        var h = "<table>\n<tr><th scope=\"col\">system, images</th><th scope=\"col\">images</th><th scope=\"col\">E-code precision</th>"
        h += "<th scope=\"col\">E-code recall</th><th scope=\"col\">E-code F1</th><th scope=\"col\">synonym recall</th></tr>\n"
        var rows: [(String, GroupScore)] = [("Ecodex, all", r.ecodex.overall), ("Ecodex, clean-to-moderate", r.ecodex.moderate),
                                            ("Ecodex, hard", r.ecodex.hard)]
        if let b = r.baseline {
            rows += [("Baseline, all", b.overall), ("Baseline, clean-to-moderate", b.moderate), ("Baseline, hard", b.hard)]
        }
        for (label, g) in rows {
            h += "<tr><th scope=\"row\">\(label)</th><td>\(g.images)</td><td>\(fmt(g.codePrecision))</td><td>\(fmt(g.codeRecall))</td>"
            h += "<td>\(fmt(g.codeF1))</td><td>\(ratio(g.names, \.recall))</td></tr>\n"
        }
        return h + "</table>\n"
    }

    static func breakdownTable(_ what: String, _ keys: [String], _ e: [String: GroupScore], _ b: [String: GroupScore]?) -> String {
        var h = "<table>\n<tr><th scope=\"col\">\(what)</th><th scope=\"col\">images</th><th scope=\"col\">Ecodex precision</th>"
        h += "<th scope=\"col\">Ecodex recall</th><th scope=\"col\">Ecodex F1</th><th scope=\"col\">synonym recall</th>"
        if b != nil { h += "<th scope=\"col\">baseline F1</th>" }
        h += "</tr>\n"
        for k in keys {
            let g = e[k]!
            h += "<tr><th scope=\"row\">\(esc(k))</th><td>\(g.images)</td><td>\(fmt(g.codePrecision))</td><td>\(fmt(g.codeRecall))</td>"
            h += "<td>\(ratio(g.codes, \.f1))</td><td>\(ratio(g.names, \.recall))</td>"
            if let b { h += "<td>\(b[k].map { ratio($0.codes, \.f1) } ?? "–")</td>" }
            h += "</tr>\n"
        }
        return h + "</table>\n"
    }

    static func timeTable(_ r: BenchReport) -> String {
        var h = "<table>\n<tr><th scope=\"col\">system</th><th scope=\"col\">mean s</th><th scope=\"col\">median s</th>"
        h += "<th scope=\"col\">p95 s</th><th scope=\"col\">max s</th></tr>\n"
        var rows = [("Ecodex (in process, one engine)", r.ecodex.timeMs)]
        if let cpu = r.ecodex.cpuMs { rows.append(("Ecodex, CPU time", cpu)) }
        if let b = r.baseline { rows.append(("Baseline (tesseract CLI per image)", b.timeMs)) }
        for (label, t) in rows {
            h += "<tr><th scope=\"row\">\(label)</th><td>\(fmt(t.mean / 1000, 2))</td><td>\(fmt(t.median / 1000, 2))</td>"
            h += "<td>\(fmt(t.p95 / 1000, 2))</td><td>\(fmt(t.max / 1000, 2))</td></tr>\n"
        }
        h += "</table>\n"
        if let mb = r.peakMemoryMB { h += "<p>Peak memory of the bench process: \(fmt(mb, 0)) MB. Start-up (store): \(fmt(r.startupMs / 1000, 2)) s; each OCR engine starts with the first photo that needs it.</p>\n" }
        return h
    }

    /// A horizontal bar chart of values in 0...1, one bar per system per row.
    static func chart(id: String, title: String, rows: [(String, Double, Double?)]) -> String {
        let hasBaseline = rows.contains { $0.2 != nil }
        let labelW = 130.0, barMax = 420.0, barH = 12.0
        let rowH = hasBaseline ? 2 * barH + 8 : barH + 8
        let height = Double(rows.count) * rowH + 40
        var s = "<figure>\n<svg role=\"img\" aria-labelledby=\"\(id)-t \(id)-d\" width=\"\(Int(labelW + barMax + 60))\" height=\"\(Int(height))\" "
        s += "viewBox=\"0 0 \(Int(labelW + barMax + 60)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">\n"
        s += "<title id=\"\(id)-t\">\(esc(title))</title>\n"
        let desc = rows.map { r in "\(r.0): Ecodex \(fmt(r.1))" + (r.2.map { ", baseline \(fmt($0))" } ?? "") }.joined(separator: "; ")
        s += "<desc id=\"\(id)-d\">\(esc(desc))</desc>\n"
        for (i, r) in rows.enumerated() {
            let y = Double(i) * rowH + 4
            s += "<text x=\"0\" y=\"\(fmt(y + barH, 1))\">\(esc(r.0))</text>\n"
            s += bar(x: labelW, y: y, w: barMax * clamp(r.1), h: barH, color: ecodexColor, label: fmt(r.1))
            if let b = r.2 {
                s += bar(x: labelW, y: y + barH + 2, w: barMax * clamp(b), h: barH, color: baselineColor, label: fmt(b))
            }
        }
        let ly = Double(rows.count) * rowH + 20
        s += "<rect x=\"\(Int(labelW))\" y=\"\(fmt(ly - 10, 1))\" width=\"12\" height=\"12\" fill=\"\(ecodexColor)\"/>"
        s += "<text x=\"\(Int(labelW + 16))\" y=\"\(fmt(ly, 1))\">Ecodex</text>\n"
        if hasBaseline {
            s += "<rect x=\"\(Int(labelW + 90))\" y=\"\(fmt(ly - 10, 1))\" width=\"12\" height=\"12\" fill=\"\(baselineColor)\"/>"
            s += "<text x=\"\(Int(labelW + 106))\" y=\"\(fmt(ly, 1))\">Baseline (tesseract CLI + E-number regex)</text>\n"
        }
        return s + "</svg>\n</figure>\n"
    }

    static func bar(x: Double, y: Double, w: Double, h: Double, color: String, label: String) -> String {
        "<rect x=\"\(fmt(x, 1))\" y=\"\(fmt(y, 1))\" width=\"\(fmt(max(w, 1), 1))\" height=\"\(fmt(h, 1))\" fill=\"\(color)\"/>"
            + "<text x=\"\(fmt(x + max(w, 1) + 4, 1))\" y=\"\(fmt(y + h - 2, 1))\">\(label)</text>\n"
    }

    static func cases(_ tallies: [CodeTally], _ what: String, _ image: (String) -> Data?) -> String {
        guard !tallies.isEmpty else { return "<p>None.</p>\n" }
        var h = ""
        // Embed one image per code, and only for the first few codes, to keep the page small.
        for (i, t) in tallies.enumerated() {
            h += "<div class=\"case\"><div><p><strong>\(esc(t.code))</strong>: \(what) on \(t.count) image\(t.count == 1 ? "" : "s")</p>"
            h += "<ul>" + t.images.map { "<li>\(esc($0))</li>" }.joined() + "</ul></div>"
            if i < 5, let first = t.images.first, let data = image(first) {
                h += "<img src=\"data:image/jpeg;base64,\(data.base64EncodedString())\" alt=\"Label image \(esc(first)), where \(esc(t.code)) was \(what)\" loading=\"lazy\">"
            }
            h += "</div>\n"
        }
        return h
    }

    static func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }

    /// The same escaping as the result page.
    static func esc(_ s: String) -> String { HTMLRenderer.esc(s) }
}
