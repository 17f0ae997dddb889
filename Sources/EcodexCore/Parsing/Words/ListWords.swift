/// Words that join the items of a list: `and`, `or` and prepositions, in the label languages.
extension ParseSession {
    /// Words that join additives in a list (`lutein and tartrazine`).
    static let conjunctions: [UInt64] =
        ["AND", "UND", "ET", "Y", "E", "EN", "OU", "OR", "ODER", "O", "I", "JA", "EA", "&", "OF", "DE", "D"]
            .map(Token.hash)

    /// `and` and `or` in the label languages, without the prepositions `conjunctions` also holds.
    static let andWords: [UInt64] = ["AND", "UND", "ET", "Y", "E", "EN", "OU", "OR", "ODER", "O", "I", "JA", "OG", "ES"]
        .map(Token.hash)

    static let andKey = Token.hash("AND")
}
