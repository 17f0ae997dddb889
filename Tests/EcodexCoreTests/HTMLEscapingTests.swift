import Foundation
import Testing
@testable import EcodexCore

/// Hostile file names and label text must never change the page's markup (issue 16, item 15).
@Suite struct HTMLEscapingTests {
    /// Each puts markup characters where a `Character`-based escaper does not see them:
    /// a combining accent makes `"` + U+0301 one `Character` that is not equal to `"`.
    static let hostile = [
        "\"\u{301} onmouseover=\"alert(1)", "<\u{301}script>alert(1)</script>", "&\u{301}amp;", "'\u{301}>",
        ">\u{301}<img src=x>", "a\u{0}b\u{1B}[31m", "javascript:alert(1)",
    ]

    /// The report for a label with every field the page shows set to `text`.
    func report(_ text: String) throws -> ScanReport {
        var r = try ScanPipeline(catalog: TestRecords.catalog).scan(.text("E102, E330, E999", label: text), options: ScanOptions())
        r.warnings = [.usedProduct(source: text, digits: text), .namedOnLabel(.sulphites, text: text)]
        r.unmatched = [text]
        r.dataVersion = text
        r.packVersion = text
        for i in r.additives.indices {
            r.additives[i].name = text
            r.additives[i].function = text
            r.additives[i].risk = text
            r.additives[i].reasons = [text, text]
            r.additives[i].audience = [text]
            r.additives[i].matchedText = [text]
            r.additives[i].references = [Reference(label: text, url: text), Reference(label: text, url: "https://e.org/" + text)]
        }
        return r
    }

    /// Counts of the scalars that make markup.
    func markup(_ html: String) -> [Unicode.Scalar: Int] {
        var counts: [Unicode.Scalar: Int] = [:]
        for u in html.unicodeScalars where "<>\"'".unicodeScalars.contains(u) { counts[u, default: 0] += 1 }
        return counts
    }

    @Test(arguments: hostile)
    func hostileTextLeavesTheMarkupAsItWas(_ text: String) throws {
        let benign = HTMLRenderer.render([try report("plain")])
        let page = HTMLRenderer.render([try report(text)])
        #expect(markup(page) == markup(benign), "markup characters leaked from \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(!page.contains("<script"))
        #expect(!page.contains("href=\"javascript"))
        #expect(!page.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    }

    @Test func escapesByScalar() {
        #expect(HTMLRenderer.esc("\"\u{301}<\u{301}") == "&quot;\u{301}&lt;\u{301}")
    }
}
