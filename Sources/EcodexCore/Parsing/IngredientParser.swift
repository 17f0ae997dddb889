/// Finds additive mentions in ingredient text: codes, names, OCR slips and function hints.
///
/// The passes run in this order because each needs the one before:
/// 1. normalise (fold case, diacritics, look-alikes; keep byte offsets) and tokenise;
/// 2. read prefixed codes (`E330`, `INS 420`), which need no context, so names never
///    start inside a code;
/// 3. match names and class words with the token trie;
/// 4. split into ingredients and let class words govern their items, which decides
///    what is additive context;
/// 5. accept what needs context (bare numbers, slip prefixes, context-only names),
///    merge `citric acid (E330)` into one mention and attach functions and ingredients.
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
