/// Repair: two words of a name read without the space between them (`potassiumcitrate`,
/// `phosphoricacid`).
///
/// Read as the two known words when exactly one cut makes them (`NameIndex.gluedNameWords`);
/// asked before a compound's last part (`potassiumcitrate` is no compound of `citrate`).
extension ParseSession {
    /// Shortest word read as two words of a name glued together.
    static let gluedNameMinLength = 8

    /// The two known words `reading` holds glued, and where to cut it; nil when none or several cuts fit.
    func gluedWords(_ reading: WordReading, length: Int, ownWord: Bool) -> NameIndex.GluedWords? {
        guard reading.plain, length >= Self.gluedNameMinLength, !ownWord else { return nil }
        return index.gluedNameWords(reading.spelled)
    }
}
