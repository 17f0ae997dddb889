/// Repair: an acid's name that qualifies bacteria or cultures names the cultures (`lactic acid bacteria`).
extension ParseSession {
    /// Whether the name in `r` qualifies bacteria or cultures: one of `microbeWords` right after it
    /// (a hyphen between: `Milchsäure-Bakterien`), or right before it with at most one link word.
    func namesMicrobes(_ r: Range<Int>) -> Bool {
        var j = r.upperBound
        if j < tokens.count, tokens[j].kind == .punct, tokens[j].key == 0x2D { j += 1 }
        if j < tokens.count, tokens[j].kind == .word, Self.microbeWords.contains(tokens[j].key) { return true }
        var i = r.lowerBound - 1
        if i >= 0, tokens[i].kind == .punct, tokens[i].key == 0x27 { i -= 1 }  // `d'acide`
        if i >= 0, tokens[i].kind == .word, Self.microbeLinks.contains(tokens[i].key) { i -= 1 }
        return i >= 0 && tokens[i].kind == .word && Self.microbeWords.contains(tokens[i].key)
    }
}
