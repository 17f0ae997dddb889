/// Repair: a long word that lost its first or last letter, or read its last twice, at the
/// print's edge or under glare (`Säureregulator atriumcitrate`, `Feuchthaltemittel Sorbitsiru`).
///
/// The one known word it spells so, read only when nothing else is (`NameIndex.longestMatch`), and
/// asked before a compound's last part (`atriumcitrate` is no compound of `citrate`).
extension ParseSession {
    /// Shortest word, as read, that may have lost or doubled a letter at its edge.
    static let edgeLossMinLength = 8

    /// The vocabulary id of the word `reading` spells with its edge repaired, or -1. `ownWord`: a
    /// word of a label language of its own (`WordsOfTheirOwn`), which no rule rewrites.
    func edgeLossWord(_ reading: WordReading, length: Int, ownWord: Bool) -> Int32 {
        guard reading.plain, length >= Self.edgeLossMinLength, length <= 40, !ownWord,
              let known = index.edgeLossWord(reading.spelled) else { return -1 }
        return known
    }
}
