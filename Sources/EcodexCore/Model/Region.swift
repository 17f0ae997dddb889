/// A regulatory region whose rules a pack carries. The pack defines the regions
/// (`RegionDefinition` in `LabelKnowledge`); the six shipped ones have names here.
public struct Region: RawRepresentable, Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    public static let eu = Region(known: "EU"), us = Region(known: "US"), uk = Region(known: "UK")
    public static let ca = Region(known: "CA"), au = Region(known: "AU"), india = Region(known: "IN")

    private init(known code: String) { rawValue = code }

    /// Any code of two to eight capital letters (`EU`, `ZZ`); whether a pack defines it is `isDefined`.
    public init?(rawValue: String) {
        guard (2...8).contains(rawValue.unicodeScalars.count),
              rawValue.unicodeScalars.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) else { return nil }
        self.rawValue = rawValue
    }

    /// Every region the installed pack defines, in its order.
    public static var allCases: [Region] { LabelKnowledge.current.regions.compactMap { Region(rawValue: $0.code) } }

    /// Accepts a defined region's code in any case, and its aliases (`GB` → UK, `NZ` → AU, `USA` → US).
    public init?(code: String) {
        let upper = code.uppercased()
        guard let d = LabelKnowledge.current.regions.first(where: { $0.code == upper || $0.aliases.contains(upper) }),
              let r = Region(rawValue: d.code) else { return nil }
        self = r
    }

    /// The region of a POSIX locale such as `de_DE.UTF-8` or `en_GB`; nil for `C`/`POSIX`.
    public init?(locale: String) {
        let stem = locale.split(separator: ".").first.map(String.init) ?? locale
        let parts = stem.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard parts.count >= 2 else { return nil }
        let country = String(parts[1].prefix(2)).uppercased()
        guard let d = LabelKnowledge.current.regions.first(where: { $0.countries.contains(country) }),
              let r = Region(rawValue: d.code) else { return nil }
        self = r
    }

    public init(from decoder: Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let r = Region(rawValue: code) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(code)\" is not a region code"))
        }
        self = r
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// The pack's definition of this region, nil when the installed pack does not define it.
    public var definition: RegionDefinition? { LabelKnowledge.current.regions.first { $0.code == rawValue } }
    /// Whether the installed pack defines this region.
    public var isDefined: Bool { definition != nil }

    /// The name a shopper reads in the footer.
    public var displayName: String { definition?.name ?? rawValue }

    /// The region as a sentence names it: `Allowed in the EU`, `Allowed in Canada`.
    public var inSentence: String { definition?.inSentence ?? rawValue }

    /// Whose law a reason cites: `EU law`, `Canadian law`.
    public var law: String { definition?.law ?? "\(rawValue) law" }

    /// Whose own text a rule is checked against, as a sentence names it: `the FDA`, `Health Canada`.
    public var regulator: String { definition?.regulator ?? displayName }

    public var description: String { rawValue }

    /// In the pack's order; regions it does not define after, by code.
    public static func < (a: Region, b: Region) -> Bool {
        let order = LabelKnowledge.current.regions
        let i = order.firstIndex { $0.code == a.rawValue } ?? order.count
        let j = order.firstIndex { $0.code == b.rawValue } ?? order.count
        return i != j ? i < j : a.rawValue < b.rawValue
    }
}
