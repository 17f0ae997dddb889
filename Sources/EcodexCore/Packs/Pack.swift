import Foundation

/// A built rule pack: every additive record plus its version metadata.
/// `scan pack build` writes it from `packs/base/`; the program ships one as the base pack.
public struct Pack: Codable, Sendable, Equatable {
    /// Semantic version of the pack (`1.0.0`).
    public var version: String
    /// Release of the additive data (`2026.11.21`).
    public var dataVersion: String
    /// Regions whose rules the pack carries.
    public var regions: [Region]
    public var additives: [Additive]
    /// The label languages and region definitions the parser and the risk engine read; nil in
    /// packs made before they were data (the program's own then apply).
    public var knowledge: LabelKnowledge?

    public init(version: String, dataVersion: String, regions: [Region], additives: [Additive], knowledge: LabelKnowledge? = nil) {
        self.version = version
        self.dataVersion = dataVersion
        self.regions = regions
        self.additives = additives
        self.knowledge = knowledge
    }

    /// `conventions` sorts before `data_version`: the versions stay in the last bytes of a built
    /// pack, where the store reads them without decoding it (`BundledPackVersions`).
    enum CodingKeys: String, CodingKey {
        case version, dataVersion = "data_version", regions, additives, knowledge = "conventions"
    }
}

extension Pack {
    /// Writes the built pack as compact JSON with sorted keys and additives in
    /// code order, so the same data always gives the same bytes (and checksum).
    /// The file is replaced atomically.
    public func write(to url: URL) throws {
        try encoded().write(to: url, options: .atomic)
    }

    /// The bytes `write(to:)` writes.
    public func encoded() throws -> Data {
        var sorted = self
        sorted.additives.sort { $0.code < $1.code }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(sorted)
    }

    /// Reads a built pack written by `write(to:)`.
    public static func read(from url: URL) throws -> Pack {
        try decode(Data(contentsOf: url))
    }

    /// Decodes a built pack's bytes. Parsed as `JSONValue` and decoded by
    /// `JSONValueDecoder`: the same `Codable` records, at under half the time of
    /// `JSONDecoder` for the base pack. Throws `CanonicalJSONError` for bytes
    /// that are not JSON, `DecodingError` for JSON that is not a pack.
    public static func decode(_ bytes: some Collection<UInt8>) throws -> Pack {
        try JSONValueDecoder().decode(Pack.self, from: JSONValue.parse(bytes))
    }
}
