/// Words of caramel colours' classes and processes (`CaramelClass`, `CaramelProcess`).
extension ParseSession {
    /// Words that name a caramel colour's process (folded prefixes): ammonia and sulphite, in the
    /// label languages (`ammonia`, `Ammoniak`, `ammoniaca`, Croatian `amonijačno`, Latvian
    /// `amonjaka`; `sulphite`, `sulfite`, `Sulfit`, `solfito`, `sulfiet`, `sulfitna`, `sulfīta`).
    static let ammoniaPrefixes: [[UInt32]] = ["AMMONI", "AMONI", "AMONJ"].map { Array($0.unicodeScalars.map(\.value)) }
    static let sulphitePrefixes: [[UInt32]] = ["SULPHIT", "SULFIT", "SOLFIT", "SULFIET"].map { Array($0.unicodeScalars.map(\.value)) }

    static let caramel = ECode(number: 150)
    static let classWords: Set<UInt64> = Set(["CLASS", "CLASSE", "KLASSE", "CLASE"].map(Token.hash))
    static let caramelClasses: [UInt64: Character] = [Token.hash("I"): "a", Token.hash("II"): "b",
                                                              Token.hash("III"): "c", Token.hash("IV"): "d"]
}
