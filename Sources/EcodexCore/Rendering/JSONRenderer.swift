import Foundation

/// Renders reports and errors as the JSON contract (docs/json.md, its schema in
/// docs/schema/ecodex-output.schema.json): one object per input, one line each (JSON Lines
/// when there are several inputs), built from `Encodable` types, keys in camelCase, a field
/// with no value `null`, every object stamped with `schemaVersion`.
public enum JSONRenderer {
    /// The version of the contract; any change to a field is a new version.
    public static let schemaVersion = "1.2"

    /// One result; `sha256` (of the photo's bytes) leads a batch's line. `record` (`scan code`)
    /// adds the additive's full record with the rules in force on `day`.
    public static func render(_ report: ScanReport, sha256: String? = nil, record: Additive? = nil,
                              on day: CalendarDay? = nil) -> String {
        encode(ReportJSON(report, sha256: sha256, record: record.map { RecordJSON($0, on: day) }))
    }

    /// A failure for one input: its class, the message the command line worded (advice
    /// included), the advice's stable code and words on their own, and its exit code; `sha256`
    /// is added for a batch's photo.
    public static func render(errorClass: ErrorClass, message: String, input: String,
                              advice: (code: String, message: String)? = nil, sha256: String?? = .none) -> String {
        encode(ErrorJSON(input: input, error: .init(errorClass: errorClass.rawValue, message: message,
                                                    advice: advice.map { .init(code: $0.code, message: $0.message) }),
                         exitCode: Int(errorClass.exitCode), sha256: sha256))
    }

    /// Any output object as one line: sorted keys, slashes unescaped.
    public static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Milliseconds to a tenth, so sums print without float noise (`6.9`, not `6.918000000000001`).
    static func tenth(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}

/// A warning or prompt: its stable code beside its words.
public struct WarningJSON: Encodable, Equatable {
    public var code: String
    public var message: String
    public init(_ w: ScanWarning) { code = w.code; message = w.message }
}

/// One scan result as printed.
struct ReportJSON: Encodable {
    let r: ScanReport
    let sha256: String?
    let record: RecordJSON?
    init(_ r: ScanReport, sha256: String? = nil, record: RecordJSON? = nil) { self.r = r; self.sha256 = sha256; self.record = record }

    enum Key: String, CodingKey {
        case schemaVersion, sha256, input, status, region, dataVersion, packVersion, ocr, summary, additives, unmatched
        case barcode, fallbackUsed, preprocessing, timingsMs, warnings, record
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(JSONRenderer.schemaVersion, forKey: .schemaVersion)
        try c.encodeIfPresent(sha256, forKey: .sha256)
        try c.encode(r.input, forKey: .input)
        try c.encode(r.status.rawValue, forKey: .status)
        try c.encode(r.region.rawValue, forKey: .region)
        try c.encode(r.dataVersion, forKey: .dataVersion)
        try c.encode(r.packVersion, forKey: .packVersion)
        try c.encode(r.ocr.map(OCRJSON.init), forKey: .ocr)
        try c.encode(SummaryJSON(r), forKey: .summary)
        try c.encode(r.additives.map(FindingJSON.init), forKey: .additives)
        try c.encode(r.unmatched, forKey: .unmatched)
        try c.encode(r.barcode, forKey: .barcode)
        try c.encode(r.fallbackUsed, forKey: .fallbackUsed)
        try c.encode(r.preprocessing, forKey: .preprocessing)
        var t = r.timingsMs
        for k in [\Timings.preprocess, \.ocr, \.parse, \.assess, \.total] { t[keyPath: k] = JSONRenderer.tenth(t[keyPath: k]) }
        try c.encode(t, forKey: .timingsMs)
        try c.encode(r.warnings.map(WarningJSON.init), forKey: .warnings)
        try c.encodeIfPresent(record, forKey: .record)
    }
}

/// The counts by badge, in the cards' words; `flagged` (red + yellow) and `neutral` (green)
/// are kept for one schema version so older scripts still read them.
struct SummaryJSON: Encodable {
    let red: Int, yellow: Int, green: Int, unmatched: Int, flagged: Int, neutral: Int
    init(_ r: ScanReport) {
        func count(_ b: Badge) -> Int { r.additives.filter { $0.badge == b }.count }
        red = count(.red); yellow = count(.yellow); green = count(.green)
        flagged = r.summary.flagged; neutral = r.summary.neutral; unmatched = r.summary.unmatched
    }
}

/// The reading of a photo; the burst and print-height fields only when known.
struct OCRJSON: Encodable {
    let meanConfidence: Double
    let lowConfidence: Bool
    let tokens: Int
    let text: String
    let frames: Int?
    let frame: String?
    let printHeight: Double?
    let capture: CaptureQuality?
    init(_ o: OCRSummary) {
        meanConfidence = o.meanConfidence; lowConfidence = o.lowConfidence; tokens = o.tokens; text = o.text
        frames = o.frames; frame = o.frame; printHeight = o.printHeight; capture = o.capture
    }
}

/// Yes, no, or null when it depends or is not known.
struct DietJSON: Encodable {
    let vegan: Bool?, vegetarian: Bool?, kosher: Bool?, halal: Bool?
    init(_ d: Dietary) {
        func b(_ s: DietStatus) -> Bool? {
            switch s {
            case .yes: true
            case .no: false
            case .depends, .unknown: nil
            }
        }
        vegan = b(d.vegan); vegetarian = b(d.vegetarian); kosher = b(d.kosher); halal = b(d.halal)
    }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(vegan, forKey: .vegan); try c.encode(vegetarian, forKey: .vegetarian)
        try c.encode(kosher, forKey: .kosher); try c.encode(halal, forKey: .halal)
    }
    enum Key: String, CodingKey { case vegan, vegetarian, kosher, halal }
}

/// One additive card.
struct FindingJSON: Encodable {
    let f: Finding
    init(_ f: Finding) { self.f = f }
    enum Key: String, CodingKey {
        case code, name, badge, matchedText, match, function, risk, audience, diet, reasons, statement, references, compare
    }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(f.code.description, forKey: .code)
        try c.encode(f.name, forKey: .name)
        try c.encode(f.badge.rawValue, forKey: .badge)
        try c.encode(f.matchedText, forKey: .matchedText)
        try c.encode(f.matchKind.rawValue, forKey: .match)
        try c.encode(f.function, forKey: .function)
        try c.encode(f.risk, forKey: .risk)
        try c.encode(f.audience, forKey: .audience)
        try c.encode(DietJSON(f.diet), forKey: .diet)
        try c.encode(f.reasons, forKey: .reasons)
        try c.encode(f.statement, forKey: .statement)
        try c.encode(f.references, forKey: .references)
        if !f.regionBadges.isEmpty {
            try c.encode(Dictionary(uniqueKeysWithValues: f.regionBadges.map { ($0.key.rawValue, $0.value.rawValue) }), forKey: .compare)
        }
    }
}

/// A failure for one input.
struct ErrorJSON: Encodable {
    struct Advice: Encodable { let code: String, message: String }
    struct Detail: Encodable {
        let errorClass: String
        let message: String
        /// What to do next, with a stable code; null when the message says all.
        let advice: Advice?
        enum CodingKeys: String, CodingKey { case errorClass = "class", message, advice }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(errorClass, forKey: .errorClass); try c.encode(message, forKey: .message)
            try c.encode(advice, forKey: .advice)
        }
    }
    let input: String
    let error: Detail
    let exitCode: Int
    /// Absent outside a batch; in a batch, null when the photo could not be hashed.
    let sha256: String??

    enum Key: String, CodingKey { case schemaVersion, input, error, exitCode, sha256 }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(JSONRenderer.schemaVersion, forKey: .schemaVersion)
        try c.encode(input, forKey: .input)
        try c.encode(error, forKey: .error)
        try c.encode(exitCode, forKey: .exitCode)
        if let sha256 { try c.encode(sha256, forKey: .sha256) }
    }
}

/// One full additive record (`scan lookup`): names, facts and the rule of every region, in
/// the contract's shape (camelCase, `null` for what is not known), not the pack's.
public struct RecordJSON: Encodable {
    let a: Additive
    /// Whose rules: those in force on this day (`scan code`), else every region's rule as recorded.
    let day: CalendarDay?
    public init(_ a: Additive, on day: CalendarDay? = nil) { self.a = a; self.day = day }

    /// A region's rule, its required statement filled in with the name used there.
    struct RuleJSON: Encodable {
        let approved: Bool, warningRequired: Bool
        let statement: String?, conditions: String?, name: String?, reference: Reference?
        enum Key: String, CodingKey { case approved, warningRequired, statement, conditions, name, reference }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(approved, forKey: .approved); try c.encode(warningRequired, forKey: .warningRequired)
            try c.encode(statement, forKey: .statement); try c.encode(conditions, forKey: .conditions)
            try c.encode(name, forKey: .name); try c.encode(reference, forKey: .reference)
        }
    }

    enum Key: String, CodingKey {
        case code, name, parent, names, classes, diet, source, population, regions, evidenceLevel, concern, risk
        case audience, references, updatedAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(a.code.description, forKey: .code)
        try c.encode(a.canonicalName, forKey: .name)
        try c.encode(a.parent?.description, forKey: .parent)
        try c.encode(a.names, forKey: .names)
        try c.encode(a.classes, forKey: .classes)
        try c.encode(DietJSON(a.dietary), forKey: .diet)
        try c.encode(a.source, forKey: .source)
        try c.encode(a.population, forKey: .population)
        var regions: [String: RuleJSON] = [:]
        for region in Region.allCases {
            guard let r = day.map({ a.rule(for: region, on: $0) }) ?? a.rule(for: region) else { continue }
            regions[region.rawValue] = RuleJSON(approved: r.approved, warningRequired: r.warningRequired,
                                                statement: r.statement(naming: a.displayName(in: region)),
                                                conditions: r.conditions, name: r.name, reference: r.reference)
        }
        try c.encode(regions, forKey: .regions)
        try c.encode(a.evidenceLevel.rawValue.lowercased(), forKey: .evidenceLevel)
        try c.encode(a.concern, forKey: .concern)
        try c.encode(a.plainRisk.summary, forKey: .risk)
        try c.encode(a.plainRisk.audience, forKey: .audience)
        try c.encode(a.references, forKey: .references)
        try c.encode(a.updatedAt, forKey: .updatedAt)
    }
}
