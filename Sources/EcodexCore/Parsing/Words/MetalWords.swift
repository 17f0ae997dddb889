/// Metals beside an anion's name (`OtherMetalSalt`).
extension ParseSession {
    /// Metals whose salts the Union list's anion-named additives do not cover (the diphosphates of
    /// E450 are sodium, potassium, calcium and magnesium salts): `iron pyrophosphate`,
    /// `pyrophosphate ferrique`, `pirofosfato férrico` are nutrient sources in fortified cereals.
    static let otherMetalsBefore: [UInt64] = ["IRON", "FERRIC", "FERROUS", "ZINC", "COPPER", "MANGANESE", "EISEN",
                                              "ZINK", "KUPFER", "MANGAN", "IJZER", "FERRICO", "FERROSO"].map(Token.hash)
    static let otherMetalsAfter: [UInt64] = ["FERRIQUE", "FERREUX", "FERRICO", "FERRICA", "FERRICI", "FERROSO", "FERROSA",
                                             "FERRIC", "FERROUS", "ZINCIQUE"].map(Token.hash)
    /// `de fer`, `di ferro`, `de hierro`, `de zinc`, `di zinco`, `van ijzer`: the metal after a link word.
    static let otherMetalsLinked: [UInt64] = ["FER", "FERRO", "HIERRO", "ZINC", "ZINCO", "CUIVRE", "RAME", "COBRE",
                                              "IJZER", "ZINK", "KOPER"].map(Token.hash)
}
