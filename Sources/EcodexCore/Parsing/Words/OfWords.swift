/// Words for `of` (`FattyAcidsAfterOf`).
extension ParseSession {
    /// E570, fatty acids.
    static let fattyAcids = 570
    /// Words for `of` before a fatty-acid name: `of`, `von`, `degli`, `des`, `d'`, `van`, `af`, `av`, `dos`.
    static let ofWords: [UInt64] = microbeLinks
        + ["DEGLI", "DEI", "DELLE", "DELLO", "DELLA", "DOS", "DAS", "DO", "DA", "AF", "AV", "ZE", "Z"].map(Token.hash)
    /// The longer of them, also read with one slip (`vonn`, `degh`) or glued to the word before
    /// (`Diglyceridenvon`, `digliceridegli`) or split in two (`deg li`).
    static let longOfWords: [[UInt32]] = ["VON", "VAN", "DES", "DEL", "DEGLI", "DELLE", "DOS"].map { Array($0.unicodeScalars.map(\.value)) }
}
