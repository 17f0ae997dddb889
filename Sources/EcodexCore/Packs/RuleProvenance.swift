/// What `scan pack validate` asks of every region rule beyond the content rules: a reference
/// to the provision that makes it, on the regulator's own text, and `conditions` a shopper can read.
/// Kept apart from `PackSource.validate` (which builds and updates also apply) so that packs made
/// before citations were recorded still install.
public enum RuleProvenance {
    /// Pages that index many instruments rather than hold the one that makes a rule: a rule citing
    /// one of them cannot be followed to its text. Compared without scheme, `www.` or trailing slash.
    public static let indexPages: Set<String> = [
        "fssai.gov.in/cms/food-safety-and-standards-regulations.php",
        "canada.ca/en/health-canada/services/food-nutrition/food-safety/food-additives/lists-permitted.html",
        "foodstandards.gov.au/food-standards-code",
        "fda.gov/food/food-additives-petitions/food-additive-status-list",
        "fda.gov/food/generally-recognized-safe-gras/gras-notice-inventory",
        "fao.org/fao-who-codexalimentarius/codex-texts/list-standards/en",
    ]

    /// Longest `conditions` line, in words, as for the other lines shoppers read.
    public static let maximumConditionWords = 18
    /// Highest reading grade (Flesch–Kincaid) of a `conditions` line.
    public static let maximumConditionGrade = 6.0

    /// Every region rule (and its dated other side) without a provision-level citation, or with
    /// `conditions` longer or harder than the plain-language check allows.
    public static func issues(_ pack: Pack) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for a in pack.additives {
            for (region, rule) in a.regionRules.sorted(by: { $0.key < $1.key }) {
                let field = "region_rules.\(region)"
                func add(_ f: String, _ message: String) { issues.append(ValidationIssue(code: a.code, field: f, message: message)) }
                for m in citationProblems(rule.reference) { add("\(field).reference", m) }
                for m in conditionProblems(rule.conditions) { add("\(field).conditions", m) }
                for (side, terms) in [("before", rule.before), ("after", rule.after)] {
                    guard let terms else { continue }
                    if let ref = terms.reference { for m in citationProblems(ref) { add("\(field).\(side).reference", m) } }
                    for m in conditionProblems(terms.conditions) { add("\(field).\(side).conditions", m) }
                }
            }
        }
        return issues
    }

    /// Why `reference` is not a provision-level citation; empty when it is one.
    public static func citationProblems(_ reference: Reference?) -> [String] {
        guard let r = reference else { return ["is missing; cite the instrument and provision that make the rule"] }
        var problems: [String] = []
        if Readability.isBlank(r.label) { problems.append("needs a label naming the instrument") }
        if Readability.isBlank(r.provision ?? "") {
            problems.append("needs a provision (e.g. \"Annex II, Part E\", \"S15-5\", \"§74.303\")")
        }
        if !r.url.hasPrefix("https://") {
            problems.append("needs an https URL to the regulator's own text")
        } else if isIndexPage(r.url) {
            problems.append("cites an index page (\(r.url)); link the instrument itself")
        }
        if case .checked(let day)? = r.check, CalendarDay(day) == nil {
            problems.append("checked \"\(day)\" is not a date (YYYY-MM-DD)")
        }
        return problems
    }

    /// Whether `url` is one of the known index pages.
    public static func isIndexPage(_ url: String) -> Bool {
        var s = Substring(url.lowercased())
        for scheme in ["https://", "http://"] where s.hasPrefix(scheme) { s = s.dropFirst(scheme.count) }
        if s.hasPrefix("www.") { s = s.dropFirst(4) }
        while s.hasSuffix("/") { s = s.dropLast() }
        return indexPages.contains(String(s))
    }

    /// Why `conditions` fails the plain-language check; empty when it passes (or is absent).
    /// A statement quoted in curly quotes is the regulator's wording, not ours, so it is not counted.
    public static func conditionProblems(_ conditions: String?) -> [String] {
        guard let conditions else { return [] }
        let text = withoutQuotedStatements(conditions)
        var problems: [String] = []
        let words = Readability.wordCount(text)
        if words > maximumConditionWords { problems.append("has \(words) words; at most \(maximumConditionWords)") }
        let grade = Readability.fleschKincaidGrade(text)
        if grade > maximumConditionGrade {
            problems.append("reads at grade \(Int(grade.rounded(.up))); at most \(Int(maximumConditionGrade))")
        }
        return problems
    }

    /// `text` with each “…” span (a label statement quoted word for word) taken out; an unclosed
    /// quote runs to the end, so a stray mark cannot hide the rest of the line from the count.
    static func withoutQuotedStatements(_ text: String) -> String {
        var kept = String.UnicodeScalarView(), pending = String.UnicodeScalarView()
        var inQuote = false
        for scalar in text.unicodeScalars {
            if inQuote {
                if scalar == "\u{201D}" { inQuote = false; pending.removeAll() } else { pending.append(scalar) }
            } else if scalar == "\u{201C}" {
                inQuote = true
                pending.append(scalar)
            } else {
                kept.append(scalar)
            }
        }
        kept.append(contentsOf: pending)
        return String(kept)
    }

    /// Per region: rules, rules failing the citation check, rules failing the conditions check,
    /// rules checked against the regulator's text, and rules not (yet) checked.
    public struct RegionCount: Sendable, Equatable {
        public var region: Region
        public var rules = 0, uncited = 0, unreadable = 0, checked = 0, unchecked = 0
    }

    public static func counts(_ pack: Pack) -> [RegionCount] {
        Region.allCases.map { region in
            var c = RegionCount(region: region)
            for a in pack.additives {
                guard let rule = a.rule(for: region) else { continue }
                c.rules += 1
                if !citationProblems(rule.reference).isEmpty { c.uncited += 1 }
                if !conditionProblems(rule.conditions).isEmpty { c.unreadable += 1 }
                if case .checked? = rule.reference?.check { c.checked += 1 } else { c.unchecked += 1 }
            }
            return c
        }
    }

    /// The table `scan pack validate` prints.
    public static func report(_ pack: Pack) -> String {
        var lines = ["Rule provenance per region (rules / no provision-level citation / conditions too long or hard / "
            + "checked against the regulator's text / not yet checked):"]
        for c in counts(pack) {
            lines.append("  \(c.region.rawValue): \(c.rules) / \(c.uncited) / \(c.unreadable) / \(c.checked) / \(c.unchecked)")
        }
        return lines.joined(separator: "\n")
    }
}
