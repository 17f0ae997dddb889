/// Repair: a code whose prefix and number stand on two lines of unsure words (`e` / `222`) counts
/// only with its class word or a code beside it.
extension ParseSession {
    /// A code whose prefix and number stand on two lines (`e` at a line's end, `222` at the next
    /// one's start), both read so unsurely that the report marks them (`OCRSummary.unsureBelow`):
    /// in letter soup that is a stray `e` and a stray number more often than a code, so it counts
    /// only as `spelledOutUnsure` does (real-dev `07549` b2, a blurred carton, read `⟨e⟩` / `⟨222⟩`
    /// as E222). A sub-form on the next line (`E452` / `(i)`) is no such break; typed text and
    /// words read less unsurely are not affected (gold `g0572`: `E` / `392` at 60–85).
    func brokenOverLinesUnsure(_ span: Range<Int>) -> Bool {
        guard let ocr, !ocr.isEmpty, span.count >= 2,
              let number = span.first(where: { tokens[$0].isDigits }), number > span.lowerBound,
              (span.lowerBound + 1...number).contains(where: { norm.startsLine(tokens[$0].start) }) else { return false }
        return (ocr.mean(over: byteRange(span)) ?? 1) < OCRSummary.unsureBelow / 100
    }
}
