/// The HTML tables that compare regions: a card's badge in each region asked with
/// `--compare`, and a full record's rules (`scan code`). One column of regions, so they fit a phone.
enum RecordHTML {
    /// A card's badge in every compared region; empty without `--compare`.
    static func compare(_ f: Finding) -> String {
        let regions = Region.allCases.filter { f.regionBadges[$0] != nil }
        guard !regions.isEmpty else { return "" }
        var h = "<table class=\"compare\">\n<caption>\(esc(f.code.description)) by region</caption>\n"
        h += "<thead><tr><th scope=\"col\">Region</th><th scope=\"col\">Badge</th></tr></thead>\n<tbody>\n"
        for region in regions {
            guard let b = f.regionBadges[region] else { continue }
            h += "<tr><th scope=\"row\"><abbr title=\"\(esc(region.displayName))\">\(region.rawValue)</abbr></th>"
            h += "<td><span class=\"badge badge-\(b.rawValue)\"><span aria-hidden=\"true\">\(b.symbol) </span>\(b.label)</span></td></tr>\n"
        }
        return h + "</tbody>\n</table>\n"
    }

    /// The rule of every region on `day`, as `RecordRenderer.text` lists it: allowed,
    /// warning, the label's statement or conditions, and the reference with its provision.
    static func table(_ a: Additive, on day: CalendarDay) -> String {
        var h = "<table class=\"record\">\n<caption>\(esc(a.canonicalName)) (\(esc(a.code.description))) by region on \(day)</caption>\n"
        h += "<thead><tr><th scope=\"col\">Region</th><th scope=\"col\">Allowed</th><th scope=\"col\">Warning</th><th scope=\"col\">Notes</th></tr></thead>\n<tbody>\n"
        for region in Region.allCases {
            h += "<tr><th scope=\"row\"><abbr title=\"\(esc(region.displayName))\">\(region.rawValue)</abbr></th>"
            guard let rule = a.rule(for: region, on: day) else {
                h += "<td>—</td><td>—</td><td>No rule recorded yet</td></tr>\n"
                continue
            }
            var note = rule.statement(naming: a.displayName(in: region)).map { "Label must say: \"\($0)\"" } ?? (rule.conditions ?? "")
            if let name = rule.name { note = "Named \(name) there. " + note }
            if let change = a.rule(for: region)?.nextChange(after: day) {
                note += " " + RiskEngine.changeLine(from: rule, to: change.rule, on: change.day)
            }
            h += "<td>\(rule.approved ? "yes" : "NO")</td><td>\(rule.warningRequired ? "YES" : "no")</td><td>\(esc(note))"
            if let ref = rule.reference {
                h += HTMLRenderer.href(ref.url).map { "<br><a href=\"\($0)\">\(esc(ref.citation))</a>" } ?? "<br>\(esc(ref.citation))"
            }
            h += "</td></tr>\n"
        }
        return h + "</tbody>\n</table>\n"
    }

    private static func esc(_ s: String) -> String { HTMLRenderer.esc(s) }
}
