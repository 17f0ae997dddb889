/// Passes after the mentions: the phenylalanine statement and named sensitivities.
extension ParseSession {
    /// Sensitivities the label names outside every additive's words (see `SensitivityWords`).
    mutating func findNamedSensitivities() {
        let spans = result.mentions.map(\.span)
        result.named = SensitivityWords.find(tokens: tokens, negated: negated,
                                             taken: { k in spans.contains { $0.overlaps(byteRange(k..<(k + 1))) } },
                                             original: original)
    }

    static let aspartame = ECode(number: 951)
    static let aspartameAcesulfameSalt = ECode(number: 962)

    /// The phenylalanine statement stands for aspartame when no aspartame was read
    /// (see `PhenylalanineStatement`).
    mutating func addAspartameFromStatement() {
        guard reader.knownCodes.contains(Self.aspartame),
              !result.mentions.contains(where: { $0.code.lineage.contains(Self.aspartame)
                  || $0.code.lineage.contains(Self.aspartameAcesulfameSalt) }),
              let r = PhenylalanineStatement.find(tokens: tokens, scalars: norm.scalars, negated: negated) else { return }
        let span = byteRange(r)
        var confidence = 0.9
        if let ocr, let mean = ocr.mean(over: span) { confidence *= mean }
        result.mentions.append(Mention(code: Self.aspartame, matchedText: [original(r)], span: span, kind: .name,
                                       confidence: confidence, function: "sweetener"))
    }
}
