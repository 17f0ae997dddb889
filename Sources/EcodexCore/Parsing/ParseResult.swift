/// What the parser found in one text.
public struct ParseResult: Sendable, Equatable {
    /// Additive occurrences the store knows, in label order.
    public var mentions: [Mention]
    /// Well-formed codes the store does not know (`E999`), as canonical strings, in label order.
    public var unmatched: [String]
    /// Sensitivities the label names in words of their own, not as an additive (`preservative:
    /// sulphites`, `Contains: crustaceans`): see `SensitivityWords`.
    public var named: [NamedSensitivity]

    public init(mentions: [Mention] = [], unmatched: [String] = [], named: [NamedSensitivity] = []) {
        self.mentions = mentions
        self.unmatched = unmatched
        self.named = named
    }
}
