extension ParseSession {
    /// Shortest word read as two words of a name glued together (`stream`).
    static let gluedNameMinLength = 8
}
