/// One run of the parser over one text: the state its passes share, and the passes in order.
///
/// `IngredientParser` owns the name index and known codes; a session owns everything derived
/// from the text (normalised scalars, tokens, structure, hits). Each pass lives in its own file
/// under `Passes/`; OCR-slip repairs are named rules under `Repairs/`, called by the pass that
/// needs them; word tables the rules read sit under `Words/`.
struct ParseSession {
    let index: NameIndex
    let norm: NormalizedText
    let tokens: [Token]
    let bytes: [UInt8]
    let ocr: WordConfidence?
    let reader: CodeReader
    let functions: [ECode: [String]]
    /// Tokens a code took: names never start inside a code.
    var consumed: [Bool]
    var codeHits: [CodeReader.Hit] = []
    var nameHits: [Candidate] = []
    /// Every class word read, in order: the structure is rebuilt with them when one must split an item.
    var classHits: [ClassHit] = []
    /// Tokens in a negation's scope (`ohne`, `sans`, `free from`): see `Negation`.
    var negated: [Bool] = []
    var structure: IngredientStructure
    /// Known codes and names in label order, before merging (`CandidatesPass`).
    var candidates: [Candidate] = []
    /// The candidates with `citric acid (E330)` merged into one (`CandidatesPass`).
    var merged: [MergedCandidate] = []
    var result = ParseResult()
    var unmatchedSeen = Set<String>()

    /// One named step over the shared state.
    struct Pass: Sendable {
        let name: String
        let run: @Sendable (inout ParseSession) -> Void
    }

    /// The passes, in the order they run. Tokenising happens in `init` (`TokenisePass`); then:
    /// - prefixed codes (`E330`, `INS 420`) first: they need no context, and the words they take
    ///   are barred to names, so a name never starts inside a code;
    /// - negation scopes before names: a class word inside `ohne Farbstoffe` governs nothing;
    /// - names and class words, with the word-level repairs (`Repairs/`) deciding what the
    ///   name trie sees; they note class words on the structure as they go;
    /// - the structure: which items name additives, so class words know their scope;
    /// - bare numbers (`(330, 331)`), which count only in a class word's scope, so after it;
    /// - candidates (with the caramel repairs), then merging `citric acid (E330)` into one;
    /// - context: the rules that keep or drop each candidate and attach function and ingredient;
    /// - statements (the phenylalanine statement) and named sensitivities, which look at what
    ///   the mentions already hold.
    static let passes: [Pass] = [
        Pass(name: "codes") { $0.readPrefixedCodes() },
        Pass(name: "negation") { $0.findNegations() },
        Pass(name: "names") { $0.matchNames() },
        Pass(name: "structure") { $0.resolveStructure() },
        Pass(name: "bare numbers") { $0.readBareNumbers() },
        Pass(name: "candidates") { $0.collectCandidates() },
        Pass(name: "merge") { $0.mergeCandidates() },
        Pass(name: "context") { $0.emitMentions() },
        Pass(name: "statements") { $0.addAspartameFromStatement() },
        Pass(name: "sensitivities") { $0.findNamedSensitivities() },
    ]

    /// Runs every pass and returns the result.
    mutating func run() -> ParseResult {
        for pass in Self.passes { pass.run(&self) }
        return result
    }
}
