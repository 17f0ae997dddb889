/// How a mention was recognised.
public enum MatchKind: String, Codable, Sendable {
    /// `E102`, `E 1 2 0`, `E160a(ii)`.
    case code
    /// `INS 211`, `SIN450i`, or a bare number in the scope of a class word.
    case ins
    /// An exact (case- and diacritic-insensitive) name from the store.
    case name
    /// A name matched within a bounded edit distance.
    case fuzzy
    /// A code whose characters OCR got wrong (`£129`, `E2l1`) and that the store knows.
    case repaired
}

/// One additive occurrence on a label. `citric acid (E330)` is one mention carrying both texts.
public struct Mention: Sendable, Equatable {
    public var code: ECode
    /// Every piece of label text that named this occurrence, as written.
    public var matchedText: [String]
    /// UTF-8 byte offsets of the occurrence in the original text.
    public var span: Range<Int>
    public var kind: MatchKind
    /// 0...1: how sure the parser is (OCR confidence, fuzziness, repairs).
    public var confidence: Double
    /// Function hint from nearby class words, as a lowercase English id (`colour`).
    public var function: String?
    /// The ingredient the mention belongs to (`Emulsifiers` for `Emulsifiers (E442, E476)`).
    public var ingredient: String?

    public init(code: ECode, matchedText: [String], span: Range<Int>, kind: MatchKind,
                confidence: Double = 1, function: String? = nil, ingredient: String? = nil) {
        self.code = code; self.matchedText = matchedText; self.span = span; self.kind = kind
        self.confidence = confidence; self.function = function; self.ingredient = ingredient
    }
}

extension Array where Element == Mention {
    /// The code each mention's card is filed under: its own, or the more specific code another
    /// mention names (`colorant: caramel` is E150 and `Zuckerkulör` E150a on one trilingual
    /// panel: one additive, one card, E150a). One card per additive, for photos, text and bursts.
    public func cardCodes() -> [ECode] {
        var distinct: [ECode] = []
        var seen = Set<ECode>()
        for m in self where seen.insert(m.code).inserted { distinct.append(m.code) }
        let card = ECode.cards(for: distinct)
        return map { card[$0.code] ?? $0.code }
    }
}

extension ECode {
    /// Each of `distinct` codes (no repeats: a label of 100 kB may repeat one code thousands of
    /// times) mapped to the most specific code among them that it is an ancestor of, or itself.
    public static func cards(for distinct: [ECode]) -> [ECode: ECode] {
        let leaves = distinct.filter { c in !distinct.contains { c.isAncestor(of: $0) } }
        var card: [ECode: ECode] = [:]
        for c in distinct { card[c] = leaves.first { c.isAncestor(of: $0) } ?? c }
        return card
    }
}

/// One name the parser should recognise, from the store.
public struct LexiconEntry: Sendable, Equatable {
    public var name: String
    public var code: ECode
    /// `en`, `de`, ... or `us` for US regulatory names.
    public var lang: String
    /// True for names that are also ordinary food (`caramel`): match only in additive context.
    public var contextOnly: Bool

    public init(name: String, code: ECode, lang: String, contextOnly: Bool = false) {
        self.name = name; self.code = code; self.lang = lang; self.contextOnly = contextOnly
    }
}

/// Everything the parser needs to know from the store: names and known codes.
public struct Lexicon: Sendable {
    public var entries: [LexiconEntry]
    public var knownCodes: Set<ECode>
    /// Each additive's functions (`colour`, `emulsifier`), the ids of `FunctionClasses`.
    /// A class word on the label lends context to names of its own class only.
    public var functions: [ECode: [String]]

    public init(entries: [LexiconEntry], knownCodes: Set<ECode>, functions: [ECode: [String]] = [:]) {
        self.entries = entries
        self.knownCodes = knownCodes
        self.functions = functions
    }

    /// Builds the lexicon from additive records.
    public init(additives: [Additive]) {
        var entries: [LexiconEntry] = []
        for a in additives {
            let contextual = Set(a.contextNames.map { $0.lowercased() })
            var seen = Set<String>()
            for (lang, names) in a.names.sorted(by: { $0.key < $1.key }) {
                for n in names {
                    seen.insert(n.lowercased())
                    entries.append(LexiconEntry(name: n, code: a.code, lang: lang,
                                                contextOnly: contextual.contains(n.lowercased())))
                }
            }
            for n in a.contextNames where !seen.contains(n.lowercased()) {
                entries.append(LexiconEntry(name: n, code: a.code, lang: "en", contextOnly: true))
            }
        }
        self.init(entries: entries, knownCodes: Set(additives.map(\.code)),
                  functions: Dictionary(additives.map { ($0.code, $0.classes) }, uniquingKeysWith: { a, _ in a }))
    }
}
