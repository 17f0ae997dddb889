/// The verdict on one additive for one shopper. Ordered: green < yellow < red.
public enum Badge: String, Codable, Sendable, Comparable, CaseIterable {
    case green, yellow, red

    /// A word that carries the meaning without colour.
    public var label: String {
        switch self {
        case .green: "GREEN"
        case .yellow: "YELLOW"
        case .red: "RED"
        }
    }

    /// A symbol that carries the meaning without colour.
    public var symbol: String {
        switch self {
        case .green: "✓"
        case .yellow: "!"
        case .red: "✖"
        }
    }

    private var rank: Int {
        switch self {
        case .green: 0
        case .yellow: 1
        case .red: 2
        }
    }

    public static func < (a: Badge, b: Badge) -> Bool { a.rank < b.rank }
}
