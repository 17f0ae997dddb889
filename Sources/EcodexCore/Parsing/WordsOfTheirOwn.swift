/// Words of the label languages that are one slip from an additive's name but are words of
/// their own: `destiné` (French "intended") is not `destrine` (dextrin), Dutch `zoetzuur`
/// (sweet-sour) is not `zoutzuur` (hydrochloric acid), `peptides` are not a protease,
/// `Carolina` rice has no carotene. Such a word is never read as a slip of a name; it still
/// matches a name it spells exactly.
///
/// Found by `goldset/tools/slip_audit.py`: every word of the word lists in Tesseract's
/// models (English, German, French, Italian, Spanish, Dutch and the Latin-script model), seven
/// letters and longer, through `scan text`; a word read as an additive by a slip is listed
/// in `packs/base/languages.json` unless it names that additive (`Chlorophyl`, `Ethylparabeen`, `butaangas`). Run the
/// audit after changing names or slip rules.
enum WordsOfTheirOwn {
    /// The words, as the pack's languages list them (`words_of_their_own`).
    static var words: [String] { LabelTables.current.wordsOfTheirOwn }

    /// The words' hashes as the parser folds and hashes a token (`Token.key`).
    static let keys: Set<UInt64> = Set(words.map { Token.hash(NormalizedText($0).scalars) })
}
