/// Judges one additive for one shopper in one region.
///
/// Every rule below looks at the record's data (region rules, population
/// cautions, diet flags, evidence level) and may raise the badge; the badge is
/// the most severe result, and the reasons are listed most severe first. The
/// rules, in precedence order (REQUIREMENTS §9):
///
/// | # | rule                                                       | badge  |
/// |---|------------------------------------------------------------|--------|
/// | 1 | the region requires a warning statement                    | red    |
/// | 2 | the region does not approve it                             | red    |
/// | 3 | a population caution matches the shopper's sensitivity/child mode | red |
/// | 4 | a diet conflict, and the shopper marked their diet strict  | red    |
/// | 5 | a population caution that the shopper did not switch on    | yellow |
/// | 6 | a diet conflict (or "depends on source")                   | yellow |
/// | 7 | no rule recorded for the region                            | yellow |
/// | 8 | evidence Limited                                           | yellow |
/// | 9 | evidence Consensus with a notable concern recorded         | yellow |
/// | 10| otherwise (approved, no warning, Regulatory or Consensus)  | green  |
///
/// When the region allows it only in some foods, its conditions follow as a green reason.
///
/// The rule judged is the one in force on the day of the scan (a dated rule's other side
/// before or after its date); a change still to come follows as a green reason ("Allowed until …").
/// A rule recorded as not yet checked against the regulator's own text (`"checked": null`)
/// is never a confident verdict: its red reasons count as yellow, and a yellow reason says so.
///
/// Unknown additives never reach the engine: the pipeline lists them as unmatched.
public enum RiskEngine {
    public struct Verdict: Sendable, Equatable {
        public var badge: Badge
        /// Plain reasons, most severe first.
        public var reasons: [String]
    }

    /// Population caution id → the sensitivity that turns it red.
    static let cautionSensitivity: [String: Sensitivity] = [
        "pku": .pku, "sulphites": .sulphites, "caffeine": .caffeine, "shellfish": .shellfish,
    ]

    /// Judges `additive` by the rules in force today.
    public static func assess(_ additive: Additive, preferences p: Preferences) -> Verdict {
        assess(additive, preferences: p, on: .today())
    }

    /// Judges `additive` by the rules in force on `day` (the scan's date; tests pass their own).
    public static func assess(_ additive: Additive, preferences p: Preferences, on day: CalendarDay) -> Verdict {
        var found: [(Badge, String)] = []
        let region = p.region
        let recorded = additive.rule(for: region)
        let rule = recorded?.inForce(on: day)
        let unchecked = rule?.reference?.check == .unchecked
        let ruleRed: Badge = unchecked ? .yellow : .red
        if let rule {
            if rule.warningRequired {
                let statement = rule.statement(naming: additive.displayName(in: region)).map { ": “\($0)”" } ?? "."
                found.append((ruleRed, "\(region.law) requires a warning on the label\(statement)"))
            }
            if !rule.approved {
                found.append((ruleRed, "Not allowed in food in \(region.inSentence)."))
            }
        } else {
            found.append((.yellow, "No rules for \(region.inSentence) are recorded yet."))
        }
        for caution in additive.population {
            let active: Bool
            if caution == "children" {
                active = p.childMode
            } else if let s = cautionSensitivity[caution] {
                active = p.sensitivities.contains(s)
            } else {
                active = false
            }
            let who = cautionLabel(caution)
            found.append(active ? (.red, "You asked to watch for \(who).") : (.yellow, "Caution for \(who)."))
        }
        for diet in Diet.allCases.sorted(by: { $0.rawValue < $1.rawValue }) where p.diets.contains(diet) {
            switch additive.dietary.status(for: diet) {
            case .no:
                found.append((p.strictDiet ? .red : .yellow, "Not \(diet.rawValue)."))
            case .depends:
                found.append((p.strictDiet ? .red : .yellow, "May not be \(diet.rawValue): it depends on the source."))
            case .yes, .unknown:
                break
            }
        }
        switch additive.evidenceLevel {
        case .limited:
            found.append((.yellow, "Evidence about it is limited."))
        case .consensus:
            if let concern = additive.concern { found.append((.yellow, concern)) }
        case .regulatory:
            break
        }
        if found.isEmpty {
            found.append((.green, "Allowed in \(region.inSentence) with no warning required."))
        }
        if unchecked {
            found.append((.yellow, uncheckedLine(region)))
        }
        if let use = rule?.limitedUse {
            found.append((.green, use))
        }
        if let rule, let change = recorded?.nextChange(after: day) {
            found.append((.green, changeLine(from: rule, to: change.rule, on: change.day)))
        }
        // Stable sort: most severe first, rule order kept within a badge.
        let ordered = found.enumerated().sorted { a, b in
            a.element.0 != b.element.0 ? a.element.0 > b.element.0 : a.offset < b.offset
        }.map(\.element)
        return Verdict(badge: ordered[0].0, reasons: ordered.map(\.1))
    }

    /// The reason a rule not yet checked against the regulator's own text gives.
    public static func uncheckedLine(_ region: Region) -> String {
        "This rule is not yet checked against \(region.regulator)’s own text."
    }

    /// What a dated rule changes and when: "Allowed until 15 Jan 2027; then revoked."
    public static func changeLine(from now: RegionRule, to next: RegionRule, on day: CalendarDay) -> String {
        let then: String = switch (now.approved, next.approved) {
        case (true, false): "revoked"
        case (false, true): "allowed"
        default: next.warningRequired == now.warningRequired ? "the conditions change"
            : next.warningRequired ? "a label warning is required" : "no label warning is required"
        }
        return "\(now.approved ? "Allowed" : "Not allowed") until \(day.spoken); then \(then)."
    }

    /// The words a reason uses for a population caution id.
    public static func cautionLabel(_ caution: String) -> String {
        switch caution {
        case "pku": "people with PKU (phenylalanine)"
        case "sulphites": "people sensitive to sulphites"
        case "caffeine": "people who limit caffeine"
        case "shellfish": "people allergic to shellfish"
        case "children": "children"
        case "polyols": "people sensitive to sugar alcohols"
        default: caution
        }
    }
}
