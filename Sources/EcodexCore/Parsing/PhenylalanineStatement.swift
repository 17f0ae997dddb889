/// The statement a label must carry when it holds aspartame: "contains a source of
/// phenylalanine" (EU and UK, Reg. (EU) No 1169/2011 Annex III point 4.2; the label languages' own
/// wordings) or "PHENYLKETONURICS: CONTAINS PHENYLALANINE" (US, 21 CFR 172.804).
///
/// Only aspartame (E951) and the aspartame-acesulfame salt (E962) require it, so a label that
/// states it holds one of them even when OCR lost the name in the list (`Aspatan!`). The parser
/// then reports aspartame, found as the statement: the shopper who watches for PKU sees it.
enum PhenylalanineStatement {
    /// The amino acid's name in the label languages, folded (`phénylalanine`, `Phenylalaninquelle`,
    /// `fenilalanina`, `fenylalanine`, `fenyloalaniny`, `fenyylialaniinin`).
    static let stems: [[UInt32]] = ["PHENYLALANIN", "FENILALANIN", "FENYLALANIN", "FENYLOALANIN", "FENYYLIALANIIN"]
        .map { $0.unicodeScalars.map(\.value) }

    /// Words that make the name a statement rather than an ingredient (`L-phenylalanine` in a
    /// supplement): `source`, `contains` and their label-language forms, within `window` words before it.
    static let statementWords: [UInt64] = [
        "SOURCE", "CONTAINS", "CONTAIN", "PHENYLKETONURICS", "PHENYLKETONURIC",
        "QUELLE", "ENTHALT", "ENTHAELT", "CONTIENT", "FONTE", "FUENTE", "CONTIENE", "BRON", "BEVAT",
        "CONTEM", "ZRODLO", "ZAWIERA", "ZDROJ", "KALLA", "KILDE", "LAHDE", "SISALTAA",
    ].map(Token.hash)
    static let window = 4
    private static let quelle: [UInt32] = "QUELLE".unicodeScalars.map(\.value)

    /// Token range of the first statement in `tokens` outside a negation, or nil.
    /// A name within one slip of a stem counts (`Phenylalaninquel1e`, `phenyIalanine`).
    static func find(tokens: [Token], scalars: [UInt32], negated: [Bool]) -> Range<Int>? {
        for (k, t) in tokens.enumerated() where t.kind == .word && t.length >= 10 && !negated[k] {
            // Every stem starts with P or F: most words are passed over without a comparison.
            let lead = scalars[Int(t.start)]
            guard lead == 0x50 || lead == 0x46 else { continue }
            let word = Array(scalars[Int(t.start)..<Int(t.end)])
            guard let stem = stems.first(where: { holds(word, $0) }) else { continue }
            // `Phenylalaninquelle`: the German statement is one word.
            if word.count >= stem.count + quelle.count, Array(word.suffix(quelle.count)) == quelle { return k..<(k + 1) }
            var seen = 0
            var j = k - 1
            var from: Int?
            while j >= 0, seen < window {
                if tokens[j].kind == .word {
                    seen += 1
                    if statementWords.contains(tokens[j].key) { from = j }
                } else if tokens[j].key == 0x2C || tokens[j].key == 0x3B || tokens[j].key == 0x2E {
                    break  // a list separator or a sentence end: the name is an item of its own
                }
                j -= 1
            }
            if let from { return from..<(k + 1) }
        }
        return nil
    }

    /// Whether `word` starts with `stem`, or with a spelling one slip from it.
    static func holds(_ word: [UInt32], _ stem: [UInt32]) -> Bool {
        guard word.count >= stem.count - 1 else { return false }
        if word.starts(with: stem) { return true }
        // One slip: compare the stem with the word's first letters, one more or one fewer.
        for n in (stem.count - 1)...(stem.count + 1) where n <= word.count {
            if EditDistance.bounded(Array(word.prefix(n)), stem, limit: 1) <= 1 { return true }
        }
        return false
    }
}
