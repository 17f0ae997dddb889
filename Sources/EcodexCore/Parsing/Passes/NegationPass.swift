extension ParseSession {
    /// Marks the tokens in a negation's scope (`ohne`, `sans`, `free from`): hits there are
    /// dropped, and class words there govern nothing. See `Negation`.
    mutating func findNegations() {
        negated = Negation.scopes(tokens: tokens, structure: structure, consumed: consumed)
    }
}
