/// A regulatory region whose rules Ecodex knows.
public enum Region: String, CaseIterable, Codable, Sendable, Comparable {
    case eu = "EU", us = "US", uk = "UK", ca = "CA", au = "AU", india = "IN"

    /// Accepts `EU`, `eu`, and common aliases (`GB` → UK, `NZ` → AU, `USA` → US).
    public init?(code: String) {
        switch code.uppercased() {
        case "EU", "EUR", "EUROPE": self = .eu
        case "US", "USA": self = .us
        case "UK", "GB": self = .uk
        case "CA", "CAN", "CANADA": self = .ca
        case "AU", "NZ", "ANZ", "AUS": self = .au
        case "IN", "IND", "INDIA": self = .india
        default: return nil
        }
    }

    /// The name a shopper reads in the footer.
    public var displayName: String {
        switch self {
        case .eu: "European Union"
        case .us: "United States"
        case .uk: "United Kingdom"
        case .ca: "Canada"
        case .au: "Australia and New Zealand"
        case .india: "India"
        }
    }

    /// The region as a sentence names it: `Allowed in the EU`, `Allowed in Canada`.
    public var inSentence: String {
        switch self {
        case .eu, .us, .uk: "the \(rawValue)"
        case .ca, .au, .india: displayName
        }
    }

    /// Whose law a reason cites: `EU law`, `Canadian law`.
    public var law: String {
        switch self {
        case .eu, .us, .uk: "\(rawValue) law"
        case .ca: "Canadian law"
        case .au: "Australian and New Zealand law"
        case .india: "Indian law"
        }
    }

    /// Whose own text a rule is checked against, as a sentence names it: `the FDA`, `Health Canada`.
    public var regulator: String {
        switch self {
        case .eu: "the European Commission"
        case .us: "the FDA"
        case .uk: "the FSA"
        case .ca: "Health Canada"
        case .au: "FSANZ"
        case .india: "FSSAI"
        }
    }

    private static let euCountries: Set<String> = [
        "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
        "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
    ]

    /// The region of a POSIX locale such as `de_DE.UTF-8` or `en_GB`; nil for `C`/`POSIX`.
    public init?(locale: String) {
        let stem = locale.split(separator: ".").first.map(String.init) ?? locale
        let parts = stem.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard parts.count >= 2 else { return nil }
        let country = String(parts[1].prefix(2)).uppercased()
        if Region.euCountries.contains(country) { self = .eu; return }
        switch country {
        case "US": self = .us
        case "GB": self = .uk
        case "CA": self = .ca
        case "AU", "NZ": self = .au
        case "IN": self = .india
        default: return nil
        }
    }

    public static func < (a: Region, b: Region) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
