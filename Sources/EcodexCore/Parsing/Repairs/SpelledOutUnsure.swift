/// Repair: a code spelled in single digits from unsure words (`E 2 5 0`) counts only with its class
/// word or a code beside it.
extension ParseSession {
    /// A code spelled in single digits set apart (`E 2 5 0`) from unsure OCR words is as often the net
    /// quantity (`℮ 250 g`) or stray marks as a code, so it counts only after a class word of its own
    /// function or beside another code. Typed text and surely read words are not affected.
    func spelledOutUnsure(_ span: Range<Int>) -> Bool {
        guard let ocr, !ocr.isEmpty, span.lazy.filter({ tokens[$0].isDigits && tokens[$0].length == 1 }).count >= 2 else { return false }
        return (ocr.mean(over: byteRange(span)) ?? 1) < Self.sureConfidence
    }
}
