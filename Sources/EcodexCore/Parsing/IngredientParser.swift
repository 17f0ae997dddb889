/// Finds additive mentions in ingredient text: codes, names, OCR slips and function hints.
///
/// The text goes through a list of named passes (`ParseSession.passes`, one file each under
/// `Passes/`): tokenise, prefixed codes, negation, names, structure, bare numbers, candidates,
/// context, statements. Why they run in that order is written beside the list.
///
/// Building the parser from a lexicon builds the name index (tens of milliseconds for ten
/// thousand names); a parser saved with `ParserImage` is mapped from its file instead, in well
/// under a millisecond of checks. Parsing is then linear in the text.
public struct IngredientParser: Sendable {
    let index: NameIndex

    /// Every code the store knows: bare numbers and unsure codes count only when known.
    public var knownCodes: Set<ECode> { index.tables.knownCodes }
    /// Each additive's functions, for class words that vouch for names of their own class.
    public var functions: [ECode: [String]] { index.tables.functions }

    /// Indexes every name and class word of `lexicon`.
    public init(lexicon: Lexicon) {
        index = NameIndex(lexicon: lexicon)
    }

    init(tables: NameTables) {
        index = NameIndex(tables: tables)
    }

    /// Parses `text`; `words` are the OCR words it came from, when it came from OCR.
    public func parse(_ text: String, words: [OCRWord]? = nil) -> ParseResult {
        var session = ParseSession(text: text, words: words, index: index, knownCodes: index.tables.knownCodes,
                                   functions: index.tables.functions)
        return session.run()
    }
}
