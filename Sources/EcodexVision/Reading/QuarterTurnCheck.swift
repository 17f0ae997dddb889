/// Whether a quarter turn the orientation test chose is kept: pale print on a coloured panel can
/// fool the test, and the turned page then reads as next to nothing. Pure, so it is table-tested.
enum QuarterTurnCheck {
    /// Words at least this sure count as text read (unsure words on a wrong turn are mostly noise).
    static let sureConfidence = 60.0
    /// A turned reading with fewer sure letters than this is read again as the photo came.
    static let checkBelowLetters = 80
    /// The reading as the photo came must hold this many times the turned one's sure letters...
    static let uprightMargin = 1.5
    /// ...and at least this many, so two noise readings never swap.
    static let minUprightLetters = 20

    /// Letters in words at least `sureConfidence` sure and two characters long.
    static func sureLetters(_ words: [RecognizedWord]) -> Int {
        words.reduce(0) { n, w in
            guard w.confidence >= sureConfidence else { return n }
            let letters = w.text.unicodeScalars.filter { $0.properties.isAlphabetic }.count
            return letters >= 2 ? n + letters : n
        }
    }

    /// Whether the page is read again as the photo came: it was turned a quarter, its reading
    /// finished and holds little sure text.
    static func checks(quarterTurns: Int, turned: [RecognizedWord], cut: Bool) -> Bool {
        quarterTurns % 2 == 1 && !cut && sureLetters(turned) < checkBelowLetters
    }

    /// Whether the reading as the photo came replaces the turned one: complete and holding clearly more sure text.
    static func keepsUpright(_ upright: [RecognizedWord], cut: Bool, over turned: [RecognizedWord]) -> Bool {
        let letters = sureLetters(upright)
        return !cut && letters >= minUprightLetters && Double(letters) >= uprightMargin * Double(sureLetters(turned))
    }
}

extension TesseractLabelReader {
    /// The step listed when a piece's quarter turn was undone because it read more text as it came.
    static let readAsItCameStep = "quarter turn undone (more text read as it came)"

    /// The piece read again as it came when its quarter turn read little (`QuarterTurnCheck`):
    /// that reading, when it holds clearly more text; nil to keep the first.
    static func checkQuarterTurn(_ piece: Piece, _ first: (words: [RecognizedWord], timedOut: Bool),
                                 with engine: TesseractEngine, mode: Int32?, tryInverted: Bool,
                                 timeLeft: () -> Int) throws -> PieceReading? {
        guard QuarterTurnCheck.checks(quarterTurns: piece.quarterTurns, turned: first.words, cut: first.timedOut)
        else { return nil }
        let back = 4 - piece.quarterTurns % 4
        let rest = timeLeft()
        guard rest > 0 else { return nil }
        let image = try piece.image.turned(back)
        let upright = try engine.recognize(image, pageSegMode: mode, budgetMs: rest, tryInverted: tryInverted)
        guard QuarterTurnCheck.keepsUpright(upright.words, cut: upright.timedOut, over: first.words) else { return nil }
        return PieceReading(words: upright.words, turned: image, cut: false, turns: back)
    }
}
