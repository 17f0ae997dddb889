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

    public init(version: String, dataVersion: String, regions: [Region], additives: [Additive]) {
        self.version = version
        self.dataVersion = dataVersion
        self.regions = regions
        self.additives = additives
    }

    enum CodingKeys: String, CodingKey {
        case version, dataVersion = "data_version", regions, additives
    }
}
