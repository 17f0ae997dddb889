/// Repair: a code whose prefix and number stand on two lines of unsure words (`e` / `222`) counts
/// only with its class word or a code beside it.
extension ParseSession {
    /// A code whose prefix and number stand on two lines (`e` / `222`), both read so unsurely that the
    /// report marks them: in letter soup that is more often stray marks than a code, so it counts only as
    /// `spelledOutUnsure` does. Sub-forms on the next line, typed text and surer words are not affected.
    func brokenOverLinesUnsure(_ span: Range<Int>) -> Bool {
        guard let ocr, !ocr.isEmpty, span.count >= 2,
              let number = span.first(where: { tokens[$0].isDigits }), number > span.lowerBound,
              (span.lowerBound + 1...number).contains(where: { norm.startsLine(tokens[$0].start) }) else { return false }
        return (ocr.mean(over: byteRange(span)) ?? 1) < OCRSummary.unsureBelow / 100
    }
}
