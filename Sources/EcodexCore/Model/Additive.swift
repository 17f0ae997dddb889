import Foundation

/// One additive record, as written in the pack source (`packs/base/additives/*.json`)
/// and stored in SQLite. JSON keys are snake_case, as in REQUIREMENTS §8.1.
public struct Additive: Codable, Sendable, Equatable {
    /// Canonical code, e.g. `E160a(ii)`; pseudo-codes are not allowed here.
    public var code: ECode
    /// The record this one is a sub-form of (`E160a` for `E160a(ii)`).
    public var parent: ECode?
    /// Names per language (`en`, `de`, `fr`, `es`, `it`, `nl`, ...) plus `us` for
    /// US regulatory names (`FD&C Yellow No. 5`). The first `en` name is the canonical name.
    public var names: [String: [String]]
    /// Names that are also ordinary food words (`caramel`, `amaranth`): they count
    /// as this additive only in additive context (after a class word).
    public var contextNames: [String]
    /// Functional classes, lowercase English ids: `colour`, `preservative`, ...
    public var classes: [String]
    public var dietary: Dietary
    /// Where it comes from: `animal`, `insect`, `plant`, `synthetic`, `mineral`, `microbial`.
    public var source: [String]
    /// Population cautions: `pku`, `sulphites`, `caffeine`, `polyols`, `children`, `shellfish`, ...
    public var population: [String]
    /// Rules per region code (`EU`, `US`, `UK`, `CA`, `AU`, `IN`).
    public var regionRules: [String: RegionRule]
    public var evidenceLevel: EvidenceLevel
    /// A notable concern on record (used by the Consensus rule); nil when none.
    public var concern: String?
    public var plainRisk: PlainRisk
    public var references: [Reference]
    /// How often the name shows on labels (Open Food Facts product counts); a ranking tiebreak.
    public var labelFrequency: Int
    /// ISO 8601 date of the last change.
    public var updatedAt: String

    public init(
        code: ECode, parent: ECode? = nil, names: [String: [String]], contextNames: [String] = [],
        classes: [String], dietary: Dietary = Dietary(), source: [String] = [], population: [String] = [],
        regionRules: [String: RegionRule], evidenceLevel: EvidenceLevel, concern: String? = nil,
        plainRisk: PlainRisk, references: [Reference], labelFrequency: Int = 0, updatedAt: String
    ) {
        self.code = code
        self.parent = parent
        self.names = names
        self.contextNames = contextNames
        self.classes = classes
        self.dietary = dietary
        self.source = source
        self.population = population
        self.regionRules = regionRules
        self.evidenceLevel = evidenceLevel
        self.concern = concern
        self.plainRisk = plainRisk
        self.references = references
        self.labelFrequency = labelFrequency
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case code, parent, names, classes = "class", dietary, source, population
        case contextNames = "context_names", regionRules = "region_rules", evidenceLevel = "evidence_level"
        case concern, plainRisk = "plain_risk", references, labelFrequency = "label_frequency", updatedAt = "updated_at"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(ECode.self, forKey: .code)
        parent = try c.decodeIfPresent(ECode.self, forKey: .parent)
        names = try c.decode([String: [String]].self, forKey: .names)
        contextNames = try c.decodeIfPresent([String].self, forKey: .contextNames) ?? []
        classes = try c.decode([String].self, forKey: .classes)
        dietary = try c.decodeIfPresent(Dietary.self, forKey: .dietary) ?? Dietary()
        source = try c.decodeIfPresent([String].self, forKey: .source) ?? []
        population = try c.decodeIfPresent([String].self, forKey: .population) ?? []
        regionRules = try c.decode([String: RegionRule].self, forKey: .regionRules)
        evidenceLevel = try c.decode(EvidenceLevel.self, forKey: .evidenceLevel)
        concern = try c.decodeIfPresent(String.self, forKey: .concern)
        plainRisk = try c.decode(PlainRisk.self, forKey: .plainRisk)
        references = try c.decode([Reference].self, forKey: .references)
        labelFrequency = try c.decodeIfPresent(Int.self, forKey: .labelFrequency) ?? 0
        updatedAt = try c.decode(String.self, forKey: .updatedAt)
    }

    /// The canonical name: the first English name, else the first name in another
    /// label language (some additives have no English name on record), else the code.
    public var canonicalName: String {
        for lang in ["en", "fr", "de", "es", "it", "nl"] {
            if let n = names[lang]?.first { return n }
        }
        return names.sorted { $0.key < $1.key }.first?.value.first ?? code.description
    }

    /// The name shoppers in `region` read on labels: the US regulatory name in
    /// the US (`FD&C Yellow No. 5`), the rule's own name if it has one, else the canonical name.
    /// A name that is only a class title and number (`Sweetener (951)`, as AU/NZ and Indian
    /// labels print it) also carries the canonical name, so the card says what it is.
    public func displayName(in region: Region) -> String {
        if let name = regionRules[region.rawValue]?.name {
            let classAndNumber = name.wholeMatch(of: /[A-Z][a-z ]+ \(\d{3,4}[a-z]?\)/) != nil
            return classAndNumber ? "\(name) · \(canonicalName)" : name
        }
        if region == .us, let us = names["us"]?.first { return us }
        return canonicalName
    }

    public func rule(for region: Region) -> RegionRule? { regionRules[region.rawValue] }

    /// The rule in force in `region` on `day` (a dated rule's other side applies before or after its date).
    public func rule(for region: Region, on day: CalendarDay) -> RegionRule? {
        regionRules[region.rawValue]?.inForce(on: day)
    }
}

/// How an additive is treated in one region.
public struct RegionRule: Codable, Sendable, Equatable {
    public var approved: Bool
    public var warningRequired: Bool
    /// The label statement the region requires, when one is required.
    public var statement: String?
    /// Conditions of use, restrictions, dates.
    public var conditions: String?
    /// The name used for it in that region's rules, when it differs (`FD&C Red No. 40`).
    public var name: String?
    /// The primary reference for this rule (regulation, listing).
    public var reference: Reference?
    /// The first day this rule applies (`YYYY-MM-DD`); before it, `before` applies when given.
    public var effectiveFrom: String?
    /// The first day this rule no longer applies (`YYYY-MM-DD`); from then on, `after` applies.
    public var effectiveUntil: String?
    /// The rule before `effectiveFrom` (the law as it was).
    public var before: RuleSide?
    /// The rule from `effectiveUntil` on (the law as it will be).
    public var after: RuleSide?

    /// The conditions, when the region allows it only in some foods or uses ("Allowed only in
    /// fish roe"): a card shows them, since finding it elsewhere is worth a second look.
    public var limitedUse: String? {
        guard approved, let conditions, Self.hasWordOnly(conditions) else { return nil }
        return conditions
    }

    /// Whether `text` holds the word "only" in any case. A byte scan, not a regular expression:
    /// it runs for every card in every compared region.
    static func hasWordOnly(_ text: String) -> Bool {
        let b = Array(text.utf8)
        func letter(_ i: Int) -> Bool {
            guard i >= 0, i < b.count else { return false }
            let c = b[i] | 0x20
            return (c >= 0x61 && c <= 0x7A) || b[i] >= 0x80
        }
        var i = 0
        while i + 4 <= b.count {
            if b[i] | 0x20 == 0x6F, b[i + 1] | 0x20 == 0x6E, b[i + 2] | 0x20 == 0x6C, b[i + 3] | 0x20 == 0x79,
               !letter(i - 1), !letter(i + 4) { return true }
            i += 1
        }
        return false
    }

    /// The statement as it appears on a label for `name`: regulations write the
    /// colour warning with a placeholder ("[name or E number of colour]: may have…").
    public func statement(naming name: String) -> String? {
        guard let statement else { return nil }
        guard let open = statement.firstIndex(of: "["), let close = statement[open...].firstIndex(of: "]"),
              statement[open...close].lowercased().hasPrefix("[name") else { return statement }
        return statement.replacingCharacters(in: open...close, with: name)
    }

    public init(approved: Bool, warningRequired: Bool = false, statement: String? = nil,
                conditions: String? = nil, name: String? = nil, reference: Reference? = nil,
                effectiveFrom: String? = nil, effectiveUntil: String? = nil, before: RuleSide? = nil, after: RuleSide? = nil) {
        self.approved = approved
        self.warningRequired = warningRequired
        self.statement = statement
        self.conditions = conditions
        self.name = name
        self.reference = reference
        self.effectiveFrom = effectiveFrom
        self.effectiveUntil = effectiveUntil
        self.before = before
        self.after = after
    }

    enum CodingKeys: String, CodingKey {
        case approved, warningRequired = "warning_required", statement, conditions, name, reference
        case effectiveFrom = "effective_from", effectiveUntil = "effective_until", before, after
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        approved = try c.decode(Bool.self, forKey: .approved)
        warningRequired = try c.decodeIfPresent(Bool.self, forKey: .warningRequired) ?? false
        statement = try c.decodeIfPresent(String.self, forKey: .statement)
        conditions = try c.decodeIfPresent(String.self, forKey: .conditions)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        reference = try c.decodeIfPresent(Reference.self, forKey: .reference)
        effectiveFrom = try c.decodeIfPresent(String.self, forKey: .effectiveFrom)
        effectiveUntil = try c.decodeIfPresent(String.self, forKey: .effectiveUntil)
        before = try c.decodeIfPresent(RuleSide.self, forKey: .before)
        after = try c.decodeIfPresent(RuleSide.self, forKey: .after)
    }

    /// The rule as it stands on `day`: `after`'s terms from `effectiveUntil` on, `before`'s
    /// terms before `effectiveFrom`, else this rule's own. The dates stay, so a card can say what changes.
    public func inForce(on day: CalendarDay) -> RegionRule {
        if let after, let until = effectiveUntil.flatMap(CalendarDay.init), day >= until { return taking(after) }
        if let before, let from = effectiveFrom.flatMap(CalendarDay.init), day < from { return taking(before) }
        return self
    }

    /// The next change after `day`: its date and the terms that apply from then on; nil when none is recorded.
    public func nextChange(after day: CalendarDay) -> (day: CalendarDay, rule: RegionRule)? {
        if before != nil, let from = effectiveFrom.flatMap(CalendarDay.init), day < from { return (from, self) }
        if let after, let until = effectiveUntil.flatMap(CalendarDay.init), day < until { return (until, taking(after)) }
        return nil
    }

    private func taking(_ side: RuleSide) -> RegionRule {
        var r = self
        r.approved = side.approved
        r.warningRequired = side.warningRequired
        r.statement = side.statement
        r.conditions = side.conditions
        if let ref = side.reference { r.reference = ref }
        return r
    }
}

/// A region rule's terms on the other side of its date (`before` or `after`): same keys as
/// a rule, without dates or a name of its own.
public struct RuleSide: Codable, Sendable, Equatable {
    public var approved: Bool
    public var warningRequired: Bool
    public var statement: String?
    public var conditions: String?
    public var reference: Reference?

    public init(approved: Bool, warningRequired: Bool = false, statement: String? = nil,
                conditions: String? = nil, reference: Reference? = nil) {
        self.approved = approved
        self.warningRequired = warningRequired
        self.statement = statement
        self.conditions = conditions
        self.reference = reference
    }

    enum CodingKeys: String, CodingKey {
        case approved, warningRequired = "warning_required", statement, conditions, reference
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        approved = try c.decode(Bool.self, forKey: .approved)
        warningRequired = try c.decodeIfPresent(Bool.self, forKey: .warningRequired) ?? false
        statement = try c.decodeIfPresent(String.self, forKey: .statement)
        conditions = try c.decodeIfPresent(String.self, forKey: .conditions)
        reference = try c.decodeIfPresent(Reference.self, forKey: .reference)
    }
}

/// Yes, no, or "depends on the source" (e.g. E471 may come from plants or animals).
public enum DietStatus: String, Codable, Sendable {
    case yes, no, depends, unknown
}

public struct Dietary: Codable, Sendable, Equatable {
    public var vegan: DietStatus
    public var vegetarian: DietStatus
    public var kosher: DietStatus
    public var halal: DietStatus

    public init(vegan: DietStatus = .unknown, vegetarian: DietStatus = .unknown,
                kosher: DietStatus = .unknown, halal: DietStatus = .unknown) {
        self.vegan = vegan
        self.vegetarian = vegetarian
        self.kosher = kosher
        self.halal = halal
    }

    enum CodingKeys: String, CodingKey { case vegan, vegetarian, kosher, halal }

    /// Missing keys mean "unknown", so pack authors write only what they know.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        vegan = try c.decodeIfPresent(DietStatus.self, forKey: .vegan) ?? .unknown
        vegetarian = try c.decodeIfPresent(DietStatus.self, forKey: .vegetarian) ?? .unknown
        kosher = try c.decodeIfPresent(DietStatus.self, forKey: .kosher) ?? .unknown
        halal = try c.decodeIfPresent(DietStatus.self, forKey: .halal) ?? .unknown
    }

    public func status(for diet: Diet) -> DietStatus {
        switch diet {
        case .vegan: vegan
        case .vegetarian: vegetarian
        case .kosher: kosher
        case .halal: halal
        }
    }
}

public enum EvidenceLevel: String, Codable, Sendable {
    case regulatory = "Regulatory", consensus = "Consensus", limited = "Limited"
}

public struct PlainRisk: Codable, Sendable, Equatable {
    /// One plain line, at most 18 words, reading grade 6 or below.
    public var summary: String
    /// Audience tags shown on the card: `Kids`, `PKU`, `Sulphites`, ...
    public var audience: [String]

    public init(summary: String, audience: [String] = []) {
        self.summary = summary
        self.audience = audience
    }
}

public struct Reference: Codable, Sendable, Equatable, Hashable {
    public var label: String
    public var url: String
    /// The provision alone (`Annex II, Part E`, `S15-5`, `§74.303`), for a region rule's reference.
    public var provision: String?
    /// Whether the rule was checked against the regulator's own text; nil when the pack records no checks.
    public var check: RuleCheck?

    public init(label: String, url: String, provision: String? = nil, check: RuleCheck? = nil) {
        self.label = label
        self.url = url
        self.provision = provision
        self.check = check
    }

    /// How a card names it: the label, then the provision when the label does not already hold it.
    public var citation: String {
        guard let provision, !provision.isEmpty, !label.contains(provision) else { return label }
        return "\(label), \(provision)"
    }

    enum CodingKeys: String, CodingKey { case label, url, provision, checked }

    /// `"checked": null` is kept apart from a missing key: it says "recorded as not yet checked".
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        label = try c.decode(String.self, forKey: .label)
        url = try c.decode(String.self, forKey: .url)
        provision = try c.decodeIfPresent(String.self, forKey: .provision)
        if c.contains(.checked) {
            check = try c.decodeIfPresent(String.self, forKey: .checked).map(RuleCheck.checked) ?? .unchecked
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(label, forKey: .label)
        try c.encode(url, forKey: .url)
        try c.encodeIfPresent(provision, forKey: .provision)
        switch check {
        case .checked(let day)?: try c.encode(day, forKey: .checked)
        case .unchecked?: try c.encodeNil(forKey: .checked)
        case nil: break
        }
    }
}

/// A region rule's check against the regulator's own text.
public enum RuleCheck: Sendable, Hashable {
    /// Recorded as not yet checked (`"checked": null`).
    case unchecked
    /// Checked on this day (`YYYY-MM-DD`).
    case checked(String)
}
