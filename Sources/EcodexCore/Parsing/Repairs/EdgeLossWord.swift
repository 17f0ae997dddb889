extension ParseSession {
    /// Shortest word, as read, that may have lost or doubled a letter at its edge (`stream`).
    static let edgeLossMinLength = 8
}
