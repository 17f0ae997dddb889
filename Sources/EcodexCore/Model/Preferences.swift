/// A diet the shopper follows.
public enum Diet: String, Codable, Sendable, CaseIterable {
    case vegan, vegetarian, kosher, halal
}

/// A sensitivity the shopper asks Ecodex to watch for. Each one matches a
/// population caution id in the store.
public enum Sensitivity: String, Codable, Sendable, CaseIterable {
    case shellfish, sulphites, pku, caffeine

    /// Accepts US spellings and common names: `sulfites`, `aspartame`, `phenylalanine`.
    public init?(name: String) {
        switch name.lowercased() {
        case "shellfish", "crustaceans": self = .shellfish
        case "sulphites", "sulfites", "sulphite", "sulfite", "so2": self = .sulphites
        case "pku", "aspartame", "phenylalanine": self = .pku
        case "caffeine": self = .caffeine
        default: return nil
        }
    }
}

/// What the shopper told Ecodex about themselves. Nothing here is inferred.
public struct Preferences: Codable, Sendable, Equatable {
    public var region: Region
    public var diets: Set<Diet>
    /// When true, a diet conflict is red instead of yellow.
    public var strictDiet: Bool
    public var sensitivities: Set<Sensitivity>
    /// Child mode: cautions for children are red instead of yellow.
    public var childMode: Bool

    public init(region: Region = .eu, diets: Set<Diet> = [], strictDiet: Bool = false,
                sensitivities: Set<Sensitivity> = [], childMode: Bool = false) {
        self.region = region
        self.diets = diets
        self.strictDiet = strictDiet
        self.sensitivities = sensitivities
        self.childMode = childMode
    }
}

extension Region {
    /// The region a scan applies when none is chosen (`auto`): the saved region, then the
    /// locale's (`LC_ALL`, then `LANG`), else EU. Never location.
    public static func resolve(saved: Region?, environment env: [String: String]) -> Region {
        if let saved { return saved }
        for key in ["LC_ALL", "LANG"] {
            if let v = env[key], !v.isEmpty, let r = Region(locale: v) { return r }
        }
        return .eu
    }
}

extension PreferencesFile {
    /// The preferences a scan applies: these saved values (with any overrides set on them),
    /// the region resolved by `Region.resolve(saved:environment:)`.
    public func preferences(environment: [String: String]) -> Preferences {
        Preferences(region: Region.resolve(saved: region, environment: environment), diets: diets, strictDiet: strictDiet,
                    sensitivities: sensitivities, childMode: childMode)
    }
}
