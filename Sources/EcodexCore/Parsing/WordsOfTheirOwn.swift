/// Words of the label languages that are one slip from an additive's name but are words of
/// their own: `destiné` (French "intended") is not `destrine` (dextrin), Dutch `zoetzuur`
/// (sweet-sour) is not `zoutzuur` (hydrochloric acid), `peptides` are not a protease,
/// `Carolina` rice has no carotene. Such a word is never read as a slip of a name; it still
/// matches a name it spells exactly.
///
/// Found by `goldset/tools/slip_audit.py`: every word of the word lists in Tesseract's
/// models (English, German, French, Italian, Spanish, Dutch and the Latin-script model), seven
/// letters and longer, through `scan text`; a word read as an additive by a slip is listed
/// here unless it names that additive (`Chlorophyl`, `Ethylparabeen`, `butaangas`). Run the
/// audit after changing names or slip rules.
enum WordsOfTheirOwn {
    static let words: [String] = [
        // Food and label words (seen on labels or likely there).
        "destiné", "destinée", "destinés", "destinées", "zoetzuur", "zoetzure", "peptides", "péptidos",
        "betaine", "betaïne", "betaína", "fórmulas", "formulas", "Carolina", "Caroline", "Cartagena",
        "cellulase", "xanthine", "propinas",
        "sacharóza", "sacharata", "glutamin", "oseille", "čistené", "čistená", "koliini", "smaksatt",
        "nitriitti", "nitriittiä", "amarantus", "amarantis", "karnosiini", "mineralul", "starine",
        // Other words of the word lists: `proteza` (prosthesis) is no protease, `formalnie`
        // (formally) no formaldehyde, `karavela` (caravel) no caramel.
        "methanol", "Castrol", "Kastrol", "oreille", "protesi", "proteza", "protezy", "proteze",
        "protese", "proteser", "próteses", "protesen", "protasi", "Lutetia", "Carmelina", "cartine",
        "cartina", "Betania", "Betaniane", "Betanië", "betaania", "carlinas", "carlines", "caminas",
        "camines", "carinas", "carinės", "carrinas", "corminas", "kaminer", "kaminai", "kamiñok",
        "kirminai", "koszalina", "kosenia", "koszenia", "sacaría", "paraban", "Caotina", "Betonrot",
        "BetOnIt", "betoninę", "betoniin", "beyanına", "Batangas", "inverts", "inventas", "incertas",
        "inertas", "invertálás", "Betavine", "landline", "langline", "nitration", "nitragin",
        "formalnie", "formalna", "formalne", "formalia", "formális", "formālie", "formālās",
        "formalias", "formatına", "karavella", "karavelo", "karavela", "karavele", "karavelės",
        "kadamela", "karolinas", "kolinas", "silvias", "silvijas", "selenis", "széleit", "sakaria",
        "sakirina", "sakların", "sakurina", "sankarina", "saçların", "saçlarına", "samarina",
        "savarina", "sacarana", "sakarība", "zararına", "zaharia", "zaharija", "scharin", "tartain",
        "tagatise", "titaanit", "trytone", "maarjamaa", "maarajaa", "povídání", "bornwasser",
        "šarovec", "šapalas", "šlapelis", "urinarne", "blankali", "aitamas", "alitazamia", "haverom",
        "karakumi", "tiloina", "sorbifolia", "syliini", "männiõli", "metanas", "metanolis",
        "melthamin", "ezamina", "triesloviny", "karfagen", "karmasin", "karmazin", "kartiņas",
        "curotiña", "pekinek", "pekinas", "pectivas", "pectinus", "paragina", "paraćina", "parajina",
        "paragino", "paradiña", "paratina", "parafia", "parfino", "tarakmi", "basilon", "aliukinis",
        "agarang", "sanidiini", "veselina", "baseinā", "baselia", "basalina", "läkitas", "moštenec",
        "korraliste", "purgandi", "proponas", "alegiñian", "pèptids",
    ]

    /// The words' hashes as the parser folds and hashes a token (`Token.key`).
    static let keys: Set<UInt64> = Set(words.map { Token.hash(NormalizedText($0).scalars) })
}
