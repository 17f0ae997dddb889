/// Repair: a short class word read with a slip from unsure words (`faree`) sets its item's function
/// but vouches for no weak name.
extension ParseSession {
    /// A class word read with a slip from unsure words, in a word shorter than `longSlipLetters`
    /// (`faree` as `Farbe`): on a page of garbled words that is often chance. It still sets the
    /// item's function, but vouches for no short or slipped name (`ocrNameHolds`).
    func weakClassWord(_ range: Range<Int>) -> Bool {
        guard let ocr, !ocr.isEmpty else { return false }
        let letters = tokens[range].reduce(0) { $0 + ($1.kind == .word ? $1.length : 0) }
        return letters < Self.longSlipLetters && (ocr.mean(over: byteRange(range)) ?? 1) < Self.unsureNameConfidence
    }
}
