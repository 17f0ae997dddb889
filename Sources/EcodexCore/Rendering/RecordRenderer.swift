/// Renders one full additive record for `scan code --full` and `scan lookup`: names,
/// facts and the rules of all six regions side by side.
public enum RecordRenderer {
    /// `day`: whose rules the table shows (a dated rule's terms on that day, and its next change).
    public static func text(_ a: Additive, matchedName: String? = nil, width: Int = TextRenderer().width,
                            on day: CalendarDay = .today()) -> String {
        let wrapper = TextRenderer(width: width)
        var out: [String] = []
        out.append("\(a.canonicalName) (\(a.code))" + (matchedName.map { $0.lowercased() != a.canonicalName.lowercased() ? " — matched \"\($0)\"" : "" } ?? ""))
        out.append("Class: \(a.classes.joined(separator: ", "))" + (a.parent.map { " · part of \($0)" } ?? ""))
        out.append(a.plainRisk.summary)
        out.append("")
        out.append("Region  Allowed  Warning  Notes")
        for region in Region.allCases {
            guard let rule = a.rule(for: region, on: day) else {
                out.append(pad(region.rawValue, 8) + "—        —        no rule recorded yet")
                continue
            }
            // The required statement as a label prints it, filled in with the name used there.
            var note = rule.statement(naming: a.displayName(in: region)).map { "Label must say: \"\($0)\"" } ?? (rule.conditions ?? "")
            if let name = rule.name { note = "Named \(name) there. " + note }
            if let change = a.rule(for: region)?.nextChange(after: day) {
                note += " " + RiskEngine.changeLine(from: rule, to: change.rule, on: change.day)
            }
            let columns = pad(region.rawValue, 8) + pad(rule.approved ? "yes" : "NO", 9) + pad(rule.warningRequired ? "YES" : "no", 9)
            // Wrap only the notes, under their own column, so the table stays aligned.
            var noteLines = TextRenderer(width: max(20, width - columns.count)).wrap(note, indent: "")
            if noteLines.isEmpty { noteLines = [""] }
            out.append(columns + noteLines[0])
            out.append(contentsOf: noteLines.dropFirst().map { String(repeating: " ", count: columns.count) + $0 })
        }
        out.append("")
        let diet = wrapper.dietMarks(a.dietary)
        if !diet.isEmpty { out.append("Diet: \(diet)") }
        if !a.source.isEmpty { out.append("Source: \(a.source.joined(separator: ", "))") }
        if !a.population.isEmpty { out.append("Cautions: " + a.population.map(RiskEngine.cautionLabel).joined(separator: "; ")) }
        out.append("Evidence: \(a.evidenceLevel.rawValue)" + (a.concern.map { " — \($0)" } ?? ""))
        for lang in ["en", "us", "de", "fr", "es", "it", "nl"] {
            if let names = a.names[lang], !names.isEmpty {
                out.append(contentsOf: wrapper.wrap("Names (\(lang)): " + names.joined(separator: ", "), indent: ""))
            }
        }
        out.append("References:")
        for r in a.references { out.append(contentsOf: wrapper.wrap("- \(r.label) <\(r.url)>", indent: "  ")) }
        out.append("Updated \(a.updatedAt). \(TextRenderer.disclaimer)")
        return out.joined(separator: "\n")
    }

    private static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}
