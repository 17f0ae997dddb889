/// Pass: bare numbers in the scope of a class word (`acidity regulators (330, 331)`).
extension ParseSession {
    /// Bare numbers in the scope of a class word (`acidity regulators (330, 331)`).
    mutating func readBareNumbers() {
        // Digits, or digits with a letter or sub-form the code reader accepts (`150d`, `160a(ii)`).
        for (position, token) in tokens.enumerated()
        where !consumed[position] && !negated[position] && token.kind == .word && token.hasDigit
            && Token.isDigit(norm.scalars[Int(token.start)]) {
            guard let governing = item(position) else { continue }
            // `caramel colour (150d)`, `soy lecithin (322)`: a bracketed number right after a name
            // of the same additive is its code, with or without a class word.
            let namedBefore = governing.function == nil && position > 0 && tokens[position - 1].kind == .punct
                && tokens[position - 1].key == 0x28
                ? nameHits.last { $0.tokens.upperBound == position - 1 } : nil
            guard governing.function != nil || namedBefore != nil else { continue }
            // A number inside a word run (`Red 40`) or a quantity is not a code; right after the
            // item's own class word it is (`Preservative 211`, `Colour 150d`, `Emulsifier 322 (soy)`),
            // when that word was read surely and names one of the code's functions (an OCR
            // `Säure` from `SUREE` above a nutrition table's `100` is not E100).
            // So is a number right after a name of the same additive (`Colour (Caramel 150d)`).
            var afterClassWord = false
            var afterName: Candidate?
            if position > 0, tokens[position - 1].kind == .word, !consumed[position - 1],
               !Self.conjunctions.contains(tokens[position - 1].key) {
                if governing.classTokens?.upperBound == position, !governing.weakClass {
                    afterClassWord = true
                } else if let name = nameHits.last(where: { $0.tokens.upperBound == position }) {
                    afterName = name
                } else {
                    continue
                }
            }
            // `2044.550`, `1,330`: the tail of a longer number. But a comma between two numbers of
            // three digits or more, the first already read as a code, lists codes with its space
            // left out: `flavour enhancer (627,631)`.
            if position >= 2, Token.isInnerNumberPunct(tokens, position - 1), !listsCodes(comma: position - 1) { continue }
            guard let hit = reader.readBare(at: position) else { continue }
            if afterClassWord, !sameFunction(hit.code, governing) { continue }
            if let name = afterName, !Self.sameAdditive(name.code, hit.code) { continue }
            if let name = namedBefore, !Self.sameAdditive(name.code, hit.code) { continue }
            for tokenIndex in hit.tokens { consumed[tokenIndex] = true }
            codeHits.append(hit)
        }
    }

    /// The comma at `c` separates two codes written without a space (`627,631`), not a number's
    /// parts (`1,330`, `12,500`): the number before it was read as a code and both have three
    /// digits or more.
    func listsCodes(comma: Int) -> Bool {
        tokens[comma].key == 0x2C && consumed[comma - 1] && codeHits.contains { $0.tokens.upperBound == comma }
            && tokens[comma - 1].length >= 3 && tokens[comma + 1].length >= 3
    }
}
