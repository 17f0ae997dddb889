/// Words of the nutrition declaration (`SaturationWord`, `NutrientLists`).
extension ParseSession {
    /// Words of the nutrition declaration (EU Reg. 1169/2011 Annex XV in the label languages):
    /// `davon gesättigte Fettsäuren`, `acides gras saturés`, `of which saturates`, `Nährwerte`.
    static let nutritionWords: [String] = ["GESATTIGT", "UNGESATTIGT", "SATURATE", "SATURE", "INSATURE", "SATURI",
                                           "INSATURI", "SATURADO", "INSATURADO", "VERZADIGD", "ONVERZADIGD",
                                           "NAHRWERT", "NUTRITION"]
    /// How many words on either side of a name are searched for a nutrition word.
    static let nutritionWindow = 6
    /// The nutrition words that qualify fats as saturated or unsaturated: no additive name is.
    static let saturationWords: [String] = ["GESATTIGT", "UNGESATTIGT", "SATURATE", "SATURE", "INSATURE", "SATURI",
                                            "INSATURI", "SATURADO", "INSATURADO", "VERZADIGD", "ONVERZADIGD"]
    /// How many words on either side of a name are searched for a saturation word.
    static let saturationWindow = 2

    static let germanSaturation = ["GESATTIGTE", "UNGESATTIGTE"].map { Array($0.unicodeScalars.map(\.value)) }
    static let romanceSaturation = ["SATURES", "SATURE", "SATURI", "SATURATED", "SATURADOS", "SATURADAS"]
        .map { Array($0.unicodeScalars.map(\.value)) }
}
