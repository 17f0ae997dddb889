/// Repair: a US colour name that OCR glued or misread (`YELLOW6`, `YELLOWS`, `Red 4O`, `biue 1`).
extension ParseSession {
    /// A US colour name as repaired: the words the name trie is given in its place.
    struct USColourReading {
        /// Vocabulary id of the colour word (`YELLOW`).
        var colour: Int32
        /// Vocabulary id of the number, slips undone (`5` for `S`).
        var number: Int32
        /// The token that holds the number: the colour word's own when OCR glued them.
        var numberToken: Int
    }

    /// The colour word and number of a US colour name that OCR glued (`Yellow6`, `RED40`) or
    /// misread (`YELLOWS` for `Yellow 5`, `Red 4O`, `BLUE l`, `biue 1`): the vocabulary ids of the
    /// word and the repaired number, and the token holding the number. Nil for a name read
    /// right, which the walk finds as it is; the walk still decides whether the pair is a name.
    func usColourNumber(at k: Int) -> USColourReading? {
        let t = tokens[k]
        guard t.kind == .word, t.length >= 3, t.length <= 8 else { return nil }
        let word = norm.scalars[Int(t.start)..<Int(t.end)]
        // Thin strokes read as each other inside the colour word: `BIUE`, `YELL0W`.
        func letter(_ v: UInt32) -> UInt32 { v == 0x49 || v == 0x31 ? 0x4C : v == 0x30 ? 0x4F : v }
        for colour in Self.usColourWords where word.count >= colour.count {
            guard zip(word.prefix(colour.count), colour).allSatisfy({ letter($0) == $1 }) else { continue }
            let rest = word.dropFirst(colour.count)
            let exact = word.prefix(colour.count).elementsEqual(colour)
            let numberToken: Int
            let number: ArraySlice<UInt32>
            if rest.isEmpty {
                guard k + 1 < tokens.count, tokens[k + 1].kind == .word, !consumed[k + 1], tokens[k + 1].length <= 2
                else { return nil }
                // Read right: the usual walk finds it.
                if exact && tokens[k + 1].isDigits { return nil }
                numberToken = k + 1
                number = norm.scalars[Int(tokens[k + 1].start)..<Int(tokens[k + 1].end)]
            } else {
                guard rest.count <= 2 else { return nil }
                numberToken = k
                number = rest
            }
            guard let digits = Self.slipDigits(number) else { return nil }
            let colourID = index.id(ofWordHash: Token.hash(colour))
            let numberID = index.id(ofWordHash: Token.hash(digits))
            guard colourID >= 0, numberID >= 0 else { return nil }
            return USColourReading(colour: colourID, number: numberID, numberToken: numberToken)
        }
        return nil
    }

    /// A number as OCR may read it in small print, letters read for digits undone
    /// (`CodeReader.slips`: `4O` is 40, `S` is 5, `l` is 1). Nil when a scalar is neither.
    static func slipDigits(_ s: ArraySlice<UInt32>) -> [UInt32]? {
        var out: [UInt32] = []
        for v in s {
            guard let d = Token.isDigit(v) ? v : CodeReader.slips[v] else { return nil }
            out.append(d)
        }
        return out.isEmpty ? nil : out
    }
}
