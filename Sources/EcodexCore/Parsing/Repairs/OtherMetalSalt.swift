/// Repair: an anion qualified by a metal the additive's salts do not cover is that metal's salt
/// (`iron pyrophosphate`), a nutrient source.
extension ParseSession {
    /// Whether the name in `r` is an anion the label qualifies by a metal beside it that is not part
    /// of the name (`iron pyrophosphate` read as `pyrophosphate`): then it names that metal's salt.
    func qualifiedByAnotherMetal(_ r: Range<Int>) -> Bool {
        let before = r.lowerBound - 1
        if before >= 0, tokens[before].kind == .word, Self.otherMetalsBefore.contains(tokens[before].key) { return true }
        var after = r.upperBound
        guard after < tokens.count, tokens[after].kind == .word else { return false }
        if Self.otherMetalsAfter.contains(tokens[after].key) { return true }
        if Self.microbeLinks.contains(tokens[after].key) {
            after += 1
            if after < tokens.count, tokens[after].kind == .punct, tokens[after].key == 0x27 { after += 1 }
            return after < tokens.count && tokens[after].kind == .word && Self.otherMetalsLinked.contains(tokens[after].key)
        }
        return false
    }
}
