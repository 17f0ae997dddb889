/// What the passes hand each other: candidates, class hits, merged candidates.
extension ParseSession {
    /// A mention before merging and context checks.
    struct Candidate {
        var code: ECode
        var tokens: Range<Int>
        var kind: MatchKind
        var edits = 0
        var contextOnly = false
        var needsContext = false
        var isCode: Bool
        /// Read as the last part of a compound word (`Sonnenblumenlecithine`): counts only under
        /// a class word of the additive's own function, or beside a code.
        var compound = false
        /// A code spelled in single digits, or broken over two lines, from unsure words
        /// (`spelledOutUnsure`, `brokenOverLinesUnsure`): counts only under a class word of its own
        /// function (when the store knows it), or beside a code.
        var spelledOut = false
        /// All the words that make up a name shared with a neighbour (`citrates de potassium et
        /// de sodium` for `sodium`), when more than `tokens`.
        var phrase: Range<Int>?

        /// The words that name the additive.
        var nameTokens: Range<Int> { phrase ?? tokens }
    }

    /// A class word read by the names pass, kept so the structure can be rebuilt with it.
    struct ClassHit {
        var tokens: Range<Int>
        var function: String?
        var nutrient: Bool
        var weak: Bool
    }

    /// One candidate, or a name and a code of one additive merged (`citric acid (E330)`).
    struct MergedCandidate {
        /// The candidates merged, in label order.
        var parts: [Candidate]
        /// The one that speaks for them: the code's candidate, spanning all parts.
        var best: Candidate
    }
}
