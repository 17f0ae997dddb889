import Foundation

/// The second part of a pack file: every record (full) or the changes from a base version (delta).
///
/// ```
/// {"additives":[…],"kind":"full"}
/// {"added":[…],"changed":[…],"kind":"delta","removed":["E203"]}
/// ```
/// Records are `Additive` JSON, snake_case as in `packs/base/`, in code order.
public enum PackPayload: Sendable, Equatable {
    case full([Additive])
    case delta(PackDelta)

    public enum Kind: String, Sendable, Codable {
        case full, delta
    }

    public var kind: Kind {
        switch self {
        case .full: .full
        case .delta: .delta
        }
    }

    /// How many records the payload carries (the manifest repeats it).
    public var recordCount: Int {
        switch self {
        case .full(let all): all.count
        case .delta(let d): d.added.count + d.changed.count + d.removed.count
        }
    }

    /// The payload's bytes: JSON with sorted keys and records in code order, then a newline.
    /// A full payload may carry the pack's label languages and regions (`knowledge`).
    public func encoded(knowledge: LabelKnowledge? = nil) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let wire: Wire
        switch self {
        case .full(let all):
            wire = Wire(kind: .full, additives: all.sorted { $0.code < $1.code }, knowledge: knowledge)
        case .delta(let d):
            wire = Wire(kind: .delta, added: d.added.sorted { $0.code < $1.code }, changed: d.changed.sorted { $0.code < $1.code },
                        removed: d.removed.sorted())
        }
        return Array(try encoder.encode(wire)) + [0x0A]
    }

    /// The checksum of a set of records: that of a full payload of them (`sha256:` and hex).
    /// A delta names its base's, so it applies only to the very records it was made from.
    public static func contentChecksum(of records: [Additive]) throws -> String {
        PackFile.checksum(try PackPayload.full(records).encoded())
    }

    /// Decodes payload bytes; any record that does not match the schema refuses the whole payload.
    public static func decode(_ bytes: [UInt8]) throws(PackError) -> PackPayload {
        try decodeWithKnowledge(bytes).payload
    }

    /// Decodes payload bytes and the label languages and regions a full payload carries.
    public static func decodeWithKnowledge(_ bytes: [UInt8]) throws(PackError) -> (payload: PackPayload, knowledge: LabelKnowledge?) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw .schema("the payload is not JSON this program reads: \(error)")
        }
        let wire: Wire
        do {
            wire = try JSONValueDecoder().decode(Wire.self, from: json)
        } catch let error as DecodingError {
            throw .schema(PackPayload.describe(error))
        } catch {
            throw .schema("\(error)")
        }
        switch wire.kind {
        case .full:
            guard let all = wire.additives, wire.added == nil, wire.changed == nil, wire.removed == nil else {
                throw .schema("a full payload has \"additives\" and nothing else")
            }
            return (.full(all), wire.knowledge)
        case .delta:
            guard wire.additives == nil, wire.knowledge == nil else {
                throw .schema("a delta payload has added, changed and removed, not additives or knowledge")
            }
            return (.delta(PackDelta(added: wire.added ?? [], changed: wire.changed ?? [], removed: wire.removed ?? [])), nil)
        }
    }

    private struct Wire: Codable {
        var kind: Kind
        var additives: [Additive]?
        var added: [Additive]?
        var changed: [Additive]?
        var removed: [ECode]?
        var knowledge: LabelKnowledge?
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        }
        switch error {
        case .keyNotFound(let key, let c): return "\(path(c.codingPath + [key])) is missing"
        case .valueNotFound(_, let c): return "\(path(c.codingPath)) is null"
        case .typeMismatch(let type, let c): return "\(path(c.codingPath)) is not a \(type)"
        case .dataCorrupted(let c): return "\(path(c.codingPath)): \(c.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// Records added, changed and removed between two versions of the data.
public struct PackDelta: Sendable, Equatable {
    /// Records the base does not have.
    public var added: [Additive]
    /// New contents of records the base has.
    public var changed: [Additive]
    /// Codes of records to delete.
    public var removed: [ECode]

    public init(added: [Additive] = [], changed: [Additive] = [], removed: [ECode] = []) {
        self.added = added
        self.changed = changed
        self.removed = removed
    }

    /// The changes that turn `old` into `new`.
    public init(from old: [Additive], to new: [Additive]) {
        let before = Dictionary(old.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
        let after = Set(new.map(\.code))
        added = new.filter { before[$0.code] == nil }.sorted { $0.code < $1.code }
        changed = new.filter { record in before[record.code].map { $0 != record } ?? false }.sorted { $0.code < $1.code }
        removed = old.map(\.code).filter { !after.contains($0) }.sorted()
    }

    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }

    /// Applies the changes to `base`. Refuses a delta that does not fit: adding a
    /// record the base has, changing or removing one it lacks, or naming a code twice.
    public func apply(to base: [Additive]) throws(PackError) -> [Additive] {
        _ = try resultingCodes(from: Set(base.map(\.code)))
        var records = Dictionary(base.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
        for a in added + changed { records[a.code] = a }
        for code in removed { records[code] = nil }
        return records.values.sorted { $0.code < $1.code }
    }

    /// The codes after applying the delta to a base holding `codes`. Refuses a
    /// delta that does not fit it (see `apply(to:)`).
    public func resultingCodes(from codes: Set<ECode>) throws(PackError) -> Set<ECode> {
        var seen = Set<ECode>()
        for code in added.map(\.code) + changed.map(\.code) + removed where !seen.insert(code).inserted {
            throw .schema("the delta names \(code) more than once")
        }
        var result = codes
        for a in added where !result.insert(a.code).inserted {
            throw .wrongBase("The update adds \(a.code), which the installed data already has")
        }
        for c in changed where !codes.contains(c.code) {
            throw .wrongBase("The update changes \(c.code), which the installed data does not have")
        }
        for code in removed where result.remove(code) == nil {
            throw .wrongBase("The update removes \(code), which the installed data does not have")
        }
        return result
    }

    /// Checks the records the delta brings against the content rules, given the
    /// codes the store will hold afterwards (a parent may be an untouched record).
    public func checkContent(resultingCodes codes: Set<ECode>, version: String, dataVersion: String, regions: [Region]) throws(PackError) {
        let touched = Pack(version: version, dataVersion: dataVersion, regions: regions, additives: added + changed)
        let issues = PackSource.validate(touched).filter { issue in
            guard issue.field == "parent", let code = issue.code,
                  let record = touched.additives.first(where: { $0.code == code }), let parent = record.parent else { return true }
            return parent == code || !codes.contains(parent)
        }
        if let first = issues.first {
            throw .schema("\(first)" + (issues.count > 1 ? " (and \(issues.count - 1) more)" : ""))
        }
    }
}
