/// Repair: a caramel colour's Codex class beside its name names its code (`caramel colour (class IV)`).
extension ParseSession {
    /// `caramel colour (class IV)`, `class III caramel`, `caramel color (IV)`: the Codex class of
    /// a caramel colour (CXG 36; FSANZ Schedule 8 prints `caramel IV`) names its code, E150a to
    /// E150d. The class is a roman numeral, after `class` or alone, right before or after the
    /// name and its class word (in brackets or not). A name needing context needs none once its
    /// class is given.
    func caramelClassNamed(_ n: Candidate) -> Candidate {
        guard n.code == Self.caramel else { return n }
        func isPunct(_ i: Int, _ keys: [UInt64]) -> Bool { i < tokens.count && tokens[i].kind == .punct && keys.contains(tokens[i].key) }
        func free(_ i: Int) -> Bool { i >= 0 && i < tokens.count && tokens[i].kind == .word && !consumed[i] }
        func isClassWord(_ i: Int) -> Bool { free(i) && Self.classWords.contains(tokens[i].key) }
        func caramelClass(_ i: Int) -> Character? { free(i) ? Self.caramelClasses[tokens[i].key] : nil }
        var refined = n
        // After: `(class IV)`, `(IV)`, `class IV`, `IV`.
        var j = n.tokens.upperBound
        // `caramel colour (class IV)`: the class word of the name's own item may come between.
        if let cls = item(n.tokens.lowerBound)?.classTokens, cls.lowerBound == j { j = cls.upperBound }
        let bracket = isPunct(j, [0x28, 0x5B])
        if bracket { j += 1 }
        let classed = isClassWord(j)
        if classed { j += 1 }
        if let letter = caramelClass(j),
           !bracket || isPunct(j + 1, [0x29, 0x5D]), bracket || classed || j + 1 == tokens.count || tokens[j + 1].kind == .punct {
            refined.code = ECode(number: 150, letter: letter)
            refined.tokens = n.tokens.lowerBound..<(bracket ? j + 2 : j + 1)
        } else if isClassWord(n.tokens.lowerBound - 2), let letter = caramelClass(n.tokens.lowerBound - 1) {
            // Before: `class IV caramel colour`.
            refined.code = ECode(number: 150, letter: letter)
            refined.tokens = (n.tokens.lowerBound - 2)..<n.tokens.upperBound
        } else {
            return n
        }
        return standingAlone(refined, else: n)
    }
}
