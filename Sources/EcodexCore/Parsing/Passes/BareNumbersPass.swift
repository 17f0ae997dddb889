/// Pass: bare numbers in the scope of a class word (`acidity regulators (330, 331)`).
extension ParseSession {
    /// Bare numbers in the scope of a class word (`acidity regulators (330, 331)`).
    mutating func readBareNumbers() {
        // Digits, or digits with a letter or sub-form the code reader accepts (`150d`, `160a(ii)`).
        for (k, t) in tokens.enumerated() where !consumed[k] && !negated[k] && t.kind == .word && t.hasDigit
            && Token.isDigit(norm.scalars[Int(t.start)]) {
            guard let it = item(k) else { continue }
            // `caramel colour (150d)`, `soy lecithin (322)`: a bracketed number right after a name
            // of the same additive is its code, with or without a class word.
            let namedBefore = it.function == nil && k > 0 && tokens[k - 1].kind == .punct && tokens[k - 1].key == 0x28
                ? nameHits.last { $0.tokens.upperBound == k - 1 } : nil
            guard it.function != nil || namedBefore != nil else { continue }
            // A number inside a word run (`Red 40`) or a quantity is not a code; right after the
            // item's own class word it is (`Preservative 211`, `Colour 150d`, `Emulsifier 322 (soy)`),
            // when that word was read surely and names one of the code's functions (an OCR
            // `Säure` from `SUREE` above a nutrition table's `100` is not E100).
            // So is a number right after a name of the same additive (`Colour (Caramel 150d)`).
            var afterClassWord = false
            var afterName: Candidate?
            if k > 0, tokens[k - 1].kind == .word, !consumed[k - 1], !Self.conjunctions.contains(tokens[k - 1].key) {
                if it.classTokens?.upperBound == k, !it.weakClass {
                    afterClassWord = true
                } else if let n = nameHits.last(where: { $0.tokens.upperBound == k }) {
                    afterName = n
                } else {
                    continue
                }
            }
            // `2044.550`, `1,330`: the tail of a longer number. But a comma between two numbers of
            // three digits or more, the first already read as a code, lists codes with its space
            // left out: `flavour enhancer (627,631)`.
            if k >= 2, Token.isInnerNumberPunct(tokens, k - 1), !listsCodes(comma: k - 1) { continue }
            guard let h = reader.readBare(at: k) else { continue }
            if afterClassWord, !sameFunction(h.code, it) { continue }
            if let n = afterName, !Self.sameAdditive(n.code, h.code) { continue }
            if let n = namedBefore, !Self.sameAdditive(n.code, h.code) { continue }
            for j in h.tokens { consumed[j] = true }
            codeHits.append(h)
        }
    }

    /// The comma at `c` separates two codes written without a space (`627,631`), not a number's
    /// parts (`1,330`, `12,500`): the number before it was read as a code and both have three
    /// digits or more.
    func listsCodes(comma c: Int) -> Bool {
        tokens[c].key == 0x2C && consumed[c - 1] && codeHits.contains { $0.tokens.upperBound == c }
            && tokens[c - 1].length >= 3 && tokens[c + 1].length >= 3
    }
}
