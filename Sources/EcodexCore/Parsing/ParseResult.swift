/// What the parser found in one text.
public struct ParseResult: Sendable, Equatable {
    /// Additive occurrences the store knows, in label order.
    public var mentions: [Mention]
    /// Well-formed codes the store does not know (`E999`), as canonical strings, in label order.
    public var unmatched: [String]

    public init(mentions: [Mention] = [], unmatched: [String] = []) {
        self.mentions = mentions
        self.unmatched = unmatched
    }
}
