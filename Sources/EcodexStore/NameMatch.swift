import EcodexCore

/// One additive found by a name lookup or search.
public struct NameMatch: Sendable, Equatable {
    /// How the query matched, best first.
    public enum Kind: String, Sendable, Codable, Comparable {
        /// The query is (after normalization) an additive's main name in some language, or its code.
        case exact
        /// The query is one of an additive's other names.
        case alias
        /// The query is part of a name (`sorbate` in `potassium sorbate`).
        case partial
        /// The query is a name with a few letters wrong (`tartrazien`).
        case fuzzy

        var rank: Int {
            switch self {
            case .exact: 0
            case .alias: 1
            case .partial: 2
            case .fuzzy: 3
            }
        }

        public static func < (a: Kind, b: Kind) -> Bool { a.rank < b.rank }
    }

    public var code: ECode
    /// The name that matched, as written in the pack.
    public var name: String
    /// Language of that name (`en`, `de`, ... or `us`).
    public var lang: String
    public var kind: Kind
    /// 0...1 within the kind: 1 for exact, lower for looser matches.
    public var score: Double

    public init(code: ECode, name: String, lang: String, kind: Kind, score: Double) {
        self.code = code
        self.name = name
        self.lang = lang
        self.kind = kind
        self.score = score
    }
}
