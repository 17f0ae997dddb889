/// Words for bacteria and cultures (`MicrobeQualifier`).
extension ParseSession {
    /// Words for the bacteria and cultures an acid's name qualifies: `lactic acid bacteria`, `lactic
    /// acid starter culture`, `Milchsäure-Bakterien`, `bacterias del ácido láctico`, `acetic acid
    /// bacteria`. Those are cultures (yogurt, cheese, sausage, vinegar), not the acid.
    static let microbeWords: [UInt64] = [
        "BACTERIA", "BACTERIUM", "BACTERIAL", "CULTURE", "CULTURES", "STARTER", "STARTERS", "BAKTERIEN",
        "BAKTERIENKULTUREN", "KULTUREN", "KULTUR", "BACTERIES", "FERMENTS", "BACTERIAS", "CULTIVOS", "FERMENTOS",
        "BATTERI", "FERMENTI", "COLTURE", "BACTERIEN", "CULTUREN", "BACTERIAN", "BAKTERIE", "BAKTERIER",
    ].map(Token.hash)
    /// Words that may stand between such a word and the acid's name before it (`bacterias del ácido láctico`).
    static let microbeLinks: [UInt64] = ["OF", "DE", "DEL", "DES", "DU", "D", "DI", "DELL", "VON", "VAN"].map(Token.hash)
}
