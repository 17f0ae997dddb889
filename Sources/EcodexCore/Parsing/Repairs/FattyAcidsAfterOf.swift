/// Repair: fatty acids after a word for `of` are the tail of another additive's name whose head OCR
/// broke (`Cliglyceride von Speisefettsäuren`), not E570.
extension ParseSession {
    /// Whether the name in `r` follows a word for `of` (`Mono- und Diglyceride von Speisefettsäuren`,
    /// `esteri di saccarosio degli acidi grassi`, `salts of fatty acids`): fatty acids named so are
    /// the tail of another additive's name. When OCR breaks its head (`Diglycericle von
    /// Speisefettsäuren`) the tail alone is not E570.
    func afterOfWord(_ r: Range<Int>) -> Bool {
        var i = r.lowerBound - 1
        if i >= 0, tokens[i].kind == .punct, tokens[i].key == 0x27 { i -= 1 }  // `d'acides gras`
        guard i >= 0, tokens[i].kind == .word else { return false }
        if Self.ofWords.contains(tokens[i].key) { return true }
        var w = Array(norm.scalars[Int(tokens[i].start)..<Int(tokens[i].end)])
        if w.count <= 3, i >= 1, tokens[i - 1].kind == .word, tokens[i - 1].end - tokens[i - 1].start <= 3 {
            w = Array(norm.scalars[Int(tokens[i - 1].start)..<Int(tokens[i - 1].end)]) + w  // `deg li`
        }
        return Self.longOfWords.contains { of in
            EditDistance.bounded(w, of, limit: 1) <= 1 || (w.count >= of.count + 3 && w.suffix(of.count).elementsEqual(of))
        }
    }
}
