import EcodexCore

/// The way a typical label-scanning app finds additives: the requirements' plain
/// E-number pattern (`\bE\s*0*\d{3}[A-Z]?\b`, REQUIREMENTS §6.2) over upper-cased OCR text,
/// no names, no INS numbers, no repair of OCR slips. The bench runs it on the bare
/// `tesseract` CLI output to show what Ecodex adds.
public enum BaselineCodes {
    /// The codes the plain pattern finds in `text`, at comparison level.
    public static func codes(in text: String) -> Set<ECode> {
        // Build the pattern here rather than as a stored global: Regex is not Sendable.
        let pattern = /\bE\s*0*\d{3}[A-Z]?\b/
        var found = Set<ECode>()
        for match in text.uppercased().matches(of: pattern) {
            if let code = ECode(String(match.output)) { found.insert(code.withoutSubForm) }
        }
        return found
    }
}
