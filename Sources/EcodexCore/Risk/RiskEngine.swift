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

    public static func assess(_ additive: Additive, preferences p: Preferences) -> Verdict {
        var found: [(Badge, String)] = []
        let region = p.region
        if let rule = additive.rule(for: region) {
            if rule.warningRequired {
                let statement = rule.statement(naming: additive.displayName(in: region)).map { ": “\($0)”" } ?? "."
                found.append((.red, "\(region.law) requires a warning on the label\(statement)"))
            }
            if !rule.approved {
                found.append((.red, "Not allowed in food in \(region.inSentence)."))
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
        if let use = additive.rule(for: region)?.limitedUse {
            found.append((.green, use))
        }
        // Stable sort: most severe first, rule order kept within a badge.
        let ordered = found.enumerated().sorted { a, b in
            a.element.0 != b.element.0 ? a.element.0 > b.element.0 : a.offset < b.offset
        }.map(\.element)
        return Verdict(badge: ordered[0].0, reasons: ordered.map(\.1))
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
