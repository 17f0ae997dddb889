/// Renders a report for a terminal: readable without colour, at most 80 columns.
public struct TextRenderer: Sendable {
    /// Use ANSI colour (only on a TTY and when `NO_COLOR` is unset; the CLI decides).
    public var color: Bool
    public var width: Int
    /// Print the text as OCR read it under the header (`--show-text`).
    public var showText: Bool

    public init(color: Bool = false, width: Int = 80, showText: Bool = false) {
        self.color = color
        self.width = width
        self.showText = showText
    }

    public static let disclaimer = "Informational only, not medical advice."

    /// The result in a few words, as the terminal and the HTML page head it, counted in the
    /// cards' own badge words; a photo whose list could not be read never looks like a clean result.
    public static func headline(_ r: ScanReport) -> String {
        var counts = r.additives.isEmpty ? "no additives found" : Badge.allCases.reversed().map { badge in
            "\(r.additives.filter { $0.badge == badge }.count) \(badge.label.lowercased())"
        }.joined(separator: ", ")
        if !r.unmatched.isEmpty { counts += ", \(r.unmatched.count) not in the additive list" }
        switch r.status {
        case .read: return counts
        case .partlyRead: return "read only in part: \(counts)"
        case .unreadable: return "the ingredients could not be read"
        }
    }

    /// Who an additive is of note for, in plain words (`Kids` → "children"), as its card says it.
    public static func audienceLine(_ audience: [String]) -> String? {
        guard !audience.isEmpty else { return nil }
        let words = audience.map { tag in
            let key = tag.lowercased()
            return RiskEngine.cautionLabel(key == "kids" ? "children" : key == "sulfites" ? "sulphites" : key)
        }
        return "Of note for: " + words.joined(separator: "; ")
    }

    public func render(_ r: ScanReport) -> String {
        var out: [String] = []
        out.append(bold("\(r.input): \(Self.headline(r))"))
        for w in r.warnings { out.append(contentsOf: wrap("Note: \(w.message)", indent: "")) }
        if showText, let ocr = r.ocr {
            out.append("")
            let from = ocr.frame.map { " from \($0)" } ?? ""
            out.append(contentsOf: wrap("Text as read\(from) (unsure words in \(OCRSummary.unsureOpen)\(OCRSummary.unsureClose)); "
                                        + "correct it and check it again with `scan text`:", indent: ""))
            for line in ocr.text.split(separator: "\n", omittingEmptySubsequences: false) {
                out.append(contentsOf: wrap(String(line), indent: "  "))
            }
        }
        for f in r.additives {
            out.append("")
            let badge = paint("[\(f.badge.symbol) \(f.badge.label)]", f.badge)
            out.append("\(badge) \(f.name) (\(f.code))" + (f.function.map { " · \($0)" } ?? ""))
            out.append(contentsOf: wrap(f.risk, indent: "    "))
            for reason in f.reasons {
                out.append(contentsOf: wrap("- \(reason)", indent: "    "))
            }
            var tags: [String] = []
            if let audience = Self.audienceLine(f.audience) { tags.append(audience) }
            let diet = dietMarks(f.diet)
            if !diet.isEmpty { tags.append(diet) }
            if !tags.isEmpty { out.append(contentsOf: wrap(tags.joined(separator: " · "), indent: "    ")) }
            out.append(contentsOf: wrap("Found as: " + f.matchedText.joined(separator: ", "), indent: "    "))
            if let ref = f.references.first {
                out.append(contentsOf: wrap("Why: \(ref.citation) <\(ref.url)>", indent: "    "))
            }
        }
        let compared = Region.allCases.filter { region in r.additives.contains { $0.regionBadges[region] != nil } }
        if !compared.isEmpty {
            out.append("")
            out.append("Compared across regions:")
            // Fixed columns so the table fits 80 columns with all six regions.
            let col = 9, nameCol = max(18, width - compared.count * col - 1)
            out.append((pad("Additive", nameCol) + compared.map { pad($0.rawValue, col) }.joined()).trimmingCharacters())
            for f in r.additives {
                let label = String("\(f.code) \(f.name)".prefix(nameCol - 1))
                out.append((pad(label, nameCol) + compared.map { region in
                    pad(f.regionBadges[region].map { "\($0.symbol) \($0.label)" } ?? "—", col)
                }.joined()).trimmingCharacters())
            }
        }
        if !r.unmatched.isEmpty {
            out.append("")
            out.append(contentsOf: wrap("Not in the additive list: " + r.unmatched.joined(separator: ", "), indent: ""))
        }
        out.append("")
        out.append(contentsOf: wrap("Region \(r.region.rawValue) · data \(r.dataVersion) · pack \(r.packVersion)", indent: ""))
        out.append(TextRenderer.disclaimer)
        return out.joined(separator: "\n")
    }

    /// `vegan: yes, vegetarian: yes, halal: depends` — text, never an icon alone.
    func dietMarks(_ d: Dietary) -> String {
        let pairs: [(String, DietStatus)] = [("vegan", d.vegan), ("vegetarian", d.vegetarian), ("kosher", d.kosher), ("halal", d.halal)]
        return pairs.compactMap { name, status -> String? in
            switch status {
            case .yes: "\(name): yes"
            case .no: "\(name): no"
            case .depends: "\(name): depends on source"
            case .unknown: nil
            }
        }.joined(separator: ", ")
    }

    func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }

    func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }

    func paint(_ s: String, _ badge: Badge) -> String {
        guard color else { return s }
        let code = switch badge {
        case .red: "1;31"
        case .yellow: "1;33"
        case .green: "1;32"
        }
        return "\u{1B}[\(code)m\(s)\u{1B}[0m"
    }

    /// Word-wraps to `width` columns, continuing lines under `indent`.
    func wrap(_ text: String, indent: String) -> [String] {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.count > indent.count && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent + "  "
            }
            line += (line.count > indent.count && !line.hasSuffix("  ") || line.count > indent.count + 2 ? " " : "") + word
        }
        if line.trimmingCharacters() != "" { lines.append(line) }
        return lines
    }
}

extension String {
    func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
