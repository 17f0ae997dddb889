/// Word stems that tell a mineral salt or an amino acid from other additive names, in the
/// label languages, for reading lists of nutrients.
///
/// Infant formula and fortified foods list their minerals without a class word
/// (`carbonate de calcium, chlorures de calcium, citrates de potassium, …`). The store marks
/// the salts added mostly as nutrients (calcium carbonate, choline chloride) context-only;
/// salts added mostly for their function (potassium citrate, calcium chloride) stay plain
/// names, because US labels print them bare. Among nutrients, those are nutrients too. The
/// stems are matched inside the folded words of a name the index already found, never in
/// free text, so `Kaliumcitrat` and `citrates de potassium` both read as a salt.
/// `packs/tools/import_off.py` holds a copy of the mineral and anion stems (`SALT_CATIONS`,
/// `SALT_ANIONS`) to decide which salt names the data makes plain; `BasePackTests` keeps the
/// two lists equal.
enum NutrientSalts {
    /// Minerals a salt supplies: calcium, potassium, sodium, magnesium, iron, zinc.
    static let cationStems: [[UInt32]] = [
        "CALC", "KALZ", "WAPN", "POTAS", "KALIUM", "NATRI", "SODI", "SODU", "MAGNE", "FERR", "EISEN", "HIERRO",
        "IJZER", "ZELAZ", "ZINC", "ZINK", "CYNK",
    ].map { Array($0.unicodeScalars.map(\.value)) }

    /// Anions of mineral-nutrient salts: citrate, chloride, carbonate, phosphate, lactate,
    /// gluconate, sulphate, oxide, hydroxide (English, German, French, Spanish, Italian, Dutch, Polish).
    static let anionStems: [[UInt32]] = [
        "CITRAT", "CYTRYNIAN", "CHLOR", "CLORUR", "CHLOREK", "CARBONAT", "KARBONAT", "WEGLAN", "PHOSPHAT", "FOSFAT",
        "LACTAT", "LAKTAT", "LATTAT", "MLECZAN", "GLUCONAT", "GLUKONIAN", "SULFAT", "SULPHAT", "SOLFAT", "SIARCZAN",
        "OXID", "OXYD", "OSSID", "TLENEK",
        // Dutch doubles the vowel: `calciumcarbonaat`, `kaliumcitraat`, `natriumfosfaat`.
        "CITRAAT", "CARBONAAT", "FOSFAAT", "LACTAAT", "GLUCONAAT", "SULFAAT",
    ].map { Array($0.unicodeScalars.map(\.value)) }

    /// Amino acids that are both additives and nutrients (L-cysteine, glycine).
    static let aminoAcidStems: [[UInt32]] = ["CYSTEIN", "CISTEIN", "GLYCIN", "GLICIN"].map {
        Array($0.unicodeScalars.map(\.value))
    }

    /// Whether any word contains one of `stems`.
    static func contains(_ words: [ArraySlice<UInt32>], _ stems: [[UInt32]]) -> Bool {
        words.contains { w in
            stems.contains { s in
                s.count <= w.count && (w.startIndex...(w.endIndex - s.count)).contains { w[$0..<($0 + s.count)].elementsEqual(s) }
            }
        }
    }

    /// A name of a salt (an anion stem, or a mineral stem): counted as a nutrient-list member.
    static func isSalt(_ words: [ArraySlice<UInt32>]) -> Bool {
        contains(words, anionStems) || contains(words, cationStems)
    }

    /// A name that may be a nutrient among nutrients: a mineral salt (mineral and anion) or an amino acid.
    static func mayBeNutrient(_ words: [ArraySlice<UInt32>]) -> Bool {
        (contains(words, cationStems) && contains(words, anionStems)) || contains(words, aminoAcidStems)
    }
}
