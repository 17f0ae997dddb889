import Foundation

/// Reads and checks the pack source folder (`packs/base/`): a `pack.json` with
/// the version metadata and one JSON file per additive under `additives/`.
///
/// ```
/// packs/base/pack.json           {"version": "1.0.0", "data_version": "2026.11.21", "regions": ["EU", "US"]}
/// packs/base/additives/E102.json one `Additive` record, snake_case keys
/// ```
public enum PackSource {
    /// Loads the pack source in `directory`, which is either the pack folder
    /// itself (holding `pack.json`) or a project root holding `packs/base/`.
    /// Additives come back sorted by code.
    ///
    /// - Throws: `PackSourceError` naming the file and, for bad records, the field.
    public static func load(directory: URL) throws -> Pack {
        let fm = FileManager.default
        var folder = directory
        if !fm.fileExists(atPath: folder.appendingPathComponent("pack.json").path) {
            let nested = directory.appendingPathComponent("packs/base")
            if fm.fileExists(atPath: nested.appendingPathComponent("pack.json").path) { folder = nested }
        }
        let metaURL = folder.appendingPathComponent("pack.json")
        let meta: Metadata = try decode(Metadata.self, from: metaURL)

        let additivesURL = folder.appendingPathComponent("additives")
        let files: [String]
        do {
            files = try fm.contentsOfDirectory(atPath: additivesURL.path).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw PackSourceError(file: additivesURL.path, field: nil, message: "cannot list the additive files: \(error.localizedDescription)")
        }
        var additives: [Additive] = []
        additives.reserveCapacity(files.count)
        for name in files {
            additives.append(try decode(Additive.self, from: additivesURL.appendingPathComponent(name)))
        }
        additives.sort { $0.code < $1.code }
        if meta.rulesChecked == true { additives = additives.map(markingUnchecked) }
        return Pack(version: meta.version, dataVersion: meta.dataVersion, regions: meta.regions, additives: additives,
                    knowledge: try knowledge(in: folder))
    }

    /// The label languages and regions of a pack source: `languages.json`, then `class-words.json`
    /// (languages), and `regions.json`; nil when the folder has none of them.
    static func knowledge(in folder: URL) throws -> LabelKnowledge? {
        var found: LabelKnowledge?
        for name in ["languages.json", "class-words.json", "regions.json"] {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            found = (found ?? LabelKnowledge()).merged(with: try decode(LabelKnowledge.self, from: url))
        }
        return found
    }

    /// Checks a pack against the content rules: unique codes, parents present,
    /// a name, at least one reference, a plain-risk line at reading grade 6 or below, known region codes, a plain-risk
    /// line of at most 18 words, and no "safe"/"unsafe" in text shoppers read.
    /// Returns every problem found; an empty list means the pack passes.
    public static func validate(_ pack: Pack) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        if !isSemanticVersion(pack.version) {
            issues.append(ValidationIssue(code: nil, field: "version", message: "\"\(pack.version)\" is not a semantic version such as 1.0.0"))
        }
        if pack.dataVersion.trimmingCharacters(in: .whitespaces).isEmpty {
            issues.append(ValidationIssue(code: nil, field: "data_version", message: "is empty"))
        }
        var seen = Set<ECode>()
        let codes = Set(pack.additives.map(\.code))
        let defined = (pack.knowledge ?? LabelKnowledge.current).regions.map(\.code)
        if let knowledge = pack.knowledge { issues += validate(knowledge) }
        for region in pack.regions where !defined.contains(region.rawValue) {
            issues.append(ValidationIssue(code: nil, field: "regions", message: "\(region) is not a region the pack defines"))
        }
        for a in pack.additives {
            func issue(_ field: String, _ message: String) {
                issues.append(ValidationIssue(code: a.code, field: field, message: message))
            }
            if !seen.insert(a.code).inserted { issue("code", "appears more than once") }
            if let parent = a.parent {
                if parent == a.code { issue("parent", "is the record itself") }
                else if !codes.contains(parent) { issue("parent", "\(parent) is not in the pack") }
            }
            var hasName = false
            var langsWithEmptyNames: [String] = []
            for (lang, names) in a.names {
                var empty = false
                for name in names {
                    if Readability.isBlank(name) { empty = true } else { hasName = true }
                }
                if empty { langsWithEmptyNames.append(lang) }
            }
            if !hasName {
                issue("names", "needs at least one name")
            }
            let grade = Readability.fleschKincaidGrade(a.plainRisk.summary)
            if grade > 6 {
                issue("plain_risk.summary", "reads at grade \(Int(grade.rounded(.up))); at most 6")
            }
            for lang in langsWithEmptyNames {
                issue("names.\(lang)", "has an empty name")
            }
            if a.classes.isEmpty { issue("class", "needs at least one class") }
            if a.references.isEmpty { issue("references", "needs at least one reference") }
            for (i, r) in a.references.enumerated() where r.label.isEmpty || !(r.url.hasPrefix("https://") || r.url.hasPrefix("http://")) {
                issue("references[\(i)]", "needs a label and an http(s) URL")
            }
            for region in a.regionRules.keys.sorted() where !defined.contains(region) {
                issue("region_rules.\(region)", "is not a region code the pack defines (\(defined.joined(separator: ", ")))")
            }
            let words = Readability.wordCount(a.plainRisk.summary)
            if words == 0 { issue("plain_risk.summary", "is empty") }
            if words > 18 { issue("plain_risk.summary", "has \(words) words; at most 18") }
            // Text shoppers read; the field is named only when it breaks the rule.
            func checkWording(_ text: String, _ field: @autoclosure () -> String) {
                if Readability.mentionsSafety(text) {
                    issue(field(), "says \"safe\" or \"unsafe\"; state facts and regulatory status instead")
                }
            }
            checkWording(a.plainRisk.summary, "plain_risk.summary")
            for (i, line) in a.plainRisk.audience.enumerated() { checkWording(line, "plain_risk.audience[\(i)]") }
            if let concern = a.concern { checkWording(concern, "concern") }
            for (region, rule) in a.regionRules.sorted(by: { $0.key < $1.key }) {
                if let s = rule.statement { checkWording(s, "region_rules.\(region).statement") }
                if let c = rule.conditions { checkWording(c, "region_rules.\(region).conditions") }
                for side in [rule.before, rule.after].compactMap({ $0 }) {
                    if let c = side.conditions { checkWording(c, "region_rules.\(region).conditions") }
                }
                for p in dateProblems(rule) { issue("region_rules.\(region).\(p.field)", p.message) }
            }
        }
        return issues
    }

    /// Region definitions need a valid, unique code and words for each sentence that names them.
    static func validate(_ knowledge: LabelKnowledge) -> [ValidationIssue] {
        var issues: [ValidationIssue] = [], seen = Set<String>()
        for (i, r) in knowledge.regions.enumerated() {
            func issue(_ message: String) { issues.append(ValidationIssue(code: nil, field: "regions[\(i)]", message: message)) }
            if Region(rawValue: r.code) == nil { issue("\"\(r.code)\" is not a region code (2 to 8 capital letters)") }
            if !seen.insert(r.code).inserted { issue("\(r.code) is defined twice") }
            for text in [r.name, r.inSentence, r.law] where Readability.isBlank(text) { issue("\(r.code) has a blank name, in_sentence or law") }
        }
        for (i, l) in knowledge.languages.enumerated() where Readability.isBlank(l.code) {
            issues.append(ValidationIssue(code: nil, field: "languages[\(i)]", message: "has no code"))
        }
        return issues
    }

    /// `pack.json`: the pack's version metadata. `rules_checked: true` declares that the pack
    /// records checks: a region rule's reference without `checked` then counts as not yet checked.
    private struct Metadata: Decodable {
        var version: String
        var dataVersion: String
        var regions: [Region]
        var rulesChecked: Bool?
        enum CodingKeys: String, CodingKey { case version, dataVersion = "data_version", regions, rulesChecked = "rules_checked" }
    }

    /// `a` with every region rule's reference that says nothing about checks marked not yet checked
    /// (written `"checked": null` in the built pack, so the store and updates carry it).
    static func markingUnchecked(_ a: Additive) -> Additive {
        func mark(_ r: Reference?) -> Reference? {
            guard var r else { return nil }
            if r.check == nil { r.check = .unchecked }
            return r
        }
        var a = a
        for (region, var rule) in a.regionRules {
            rule.reference = mark(rule.reference)
            if var side = rule.before { side.reference = mark(side.reference); rule.before = side }
            if var side = rule.after { side.reference = mark(side.reference); rule.after = side }
            a.regionRules[region] = rule
        }
        return a
    }

    /// Problems with a region rule's dates: each parses, `before` comes with `effective_from`,
    /// `after` with `effective_until`, and the first precedes the second.
    static func dateProblems(_ rule: RegionRule) -> [(field: String, message: String)] {
        var problems: [(String, String)] = []
        let from = rule.effectiveFrom.map { ($0, CalendarDay($0)) }, until = rule.effectiveUntil.map { ($0, CalendarDay($0)) }
        if let (text, day) = from, day == nil { problems.append(("effective_from", "\"\(text)\" is not a date (YYYY-MM-DD)")) }
        if let (text, day) = until, day == nil { problems.append(("effective_until", "\"\(text)\" is not a date (YYYY-MM-DD)")) }
        if rule.before != nil, from == nil { problems.append(("before", "needs effective_from, the day the rule takes over")) }
        if rule.after != nil, until == nil { problems.append(("after", "needs effective_until, the day it takes over")) }
        if let a = from?.1, let b = until?.1, a >= b { problems.append(("effective_until", "comes before effective_from")) }
        return problems
    }

    private static func decode<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PackSourceError(file: url.path, field: nil, message: "cannot read the file: \(error.localizedDescription)")
        }
        // Through JSONValue, as pack payloads are (twice as fast as JSONDecoder over the
        // base folder). Stricter than JSONDecoder: a key given twice is an error, not a
        // silent choice. A UTF-8 byte-order mark, which some editors add, is skipped.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let bytes = data.starts(with: bom) ? data.dropFirst(bom.count) : data[...]
        do {
            return try JSONValueDecoder().decode(T.self, from: JSONValue.parse(bytes))
        } catch let error as DecodingError {
            throw PackSourceError(file: url.path, decodingError: error)
        } catch {
            throw PackSourceError(file: url.path, field: nil, message: "\(error)")
        }
    }

    private static func isSemanticVersion(_ s: String) -> Bool {
        let core = s.split(separator: "-", maxSplits: 1).first.map(String.init) ?? s
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}

/// A pack source file that could not be read or decoded.
public struct PackSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Path of the file.
    public var file: String
    /// The JSON field at fault (`region_rules.EU.approved`), when known.
    public var field: String?
    public var message: String

    public init(file: String, field: String?, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    init(file: String, decodingError error: DecodingError) {
        func path(_ keys: [CodingKey]) -> String? {
            let parts = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            guard !parts.isEmpty else { return nil }
            return parts.reduce("") { $0.isEmpty || $1.hasPrefix("[") ? $0 + $1 : $0 + "." + $1 }
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(file: file, field: path(context.codingPath + [key]), message: "is missing")
        case .valueNotFound(_, let context):
            self.init(file: file, field: path(context.codingPath), message: "is null; a value is required")
        case .typeMismatch(let type, let context):
            self.init(file: file, field: path(context.codingPath), message: "has the wrong type; expected \(type)")
        case .dataCorrupted(let context):
            self.init(file: file, field: path(context.codingPath), message: context.debugDescription)
        @unknown default:
            self.init(file: file, field: nil, message: "\(error)")
        }
    }

    public var description: String {
        "\(file)" + (field.map { ": \($0)" } ?? "") + ": \(message)"
    }
}

/// One problem `PackSource.validate` found.
public struct ValidationIssue: Sendable, Equatable, CustomStringConvertible {
    /// The record at fault; nil for pack-level fields.
    public var code: ECode?
    /// The JSON field, snake_case as in the pack (`plain_risk.summary`).
    public var field: String
    public var message: String

    public init(code: ECode?, field: String, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String {
        (code.map { "\($0) " } ?? "") + "\(field): \(message)"
    }
}
