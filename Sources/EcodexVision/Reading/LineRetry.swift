/// Unsure lines read again alone: a line of small print read as letter soup at its own size often
/// reads right cropped from the page, enlarged so its print is `targetCapHeight` high and read as
/// one line. Bounded: at most `maxLines` lines, each within the photo's time left.
enum LineRetry {
    /// A line whose words' mean confidence is below this is unsure.
    static let unsureBelow = 70.0
    /// A line needs this many letters to be worth reading again.
    static let minLetters = 6
    /// At most this many lines are read again per piece, those with the most letters first.
    static let maxLines = 6
    /// Cap height the line is enlarged to, pixels (Tesseract reads lines best at 30-50 px).
    static let targetCapHeight = 50.0
    /// Cap height as a share of a line's word box (ascenders to descenders).
    static let capShare = 0.7
    /// Enlarging is bounded: never more than this, and a line crop never above `maxCropPixels`.
    static let maxScale = 4.0
    static let maxCropPixels = 2_000_000
    /// How much surer (mean word confidence) the line's new reading must be to replace it.
    static let margin = 10.0
    /// Lines whose height is outside this share of the page's typical sure line are not list print.
    static let listHeightRange = 0.6...1.6
    /// A line is read again only with this much of the photo's time left, milliseconds.
    static let minLineMs = 300
    /// Page mode 7: the image is one line of text.
    static let lineMode: Int32 = 7

    struct Line: Equatable {
        var number: Int
        var x: Int, y: Int, width: Int, height: Int
        var confidence: Double
        var letters: Int
    }

    /// The lines of `words` to read again, best worth it first: unsure, with letters enough, of the
    /// list's print size (the height of the page's sure lines), at most `maxLines`.
    static func unsureLines(_ words: [RecognizedWord]) -> [Line] {
        let lines = Dictionary(grouping: words, by: \.line).map { n, ws -> Line in
            let x0 = ws.map(\.left).min()!, y0 = ws.map(\.top).min()!
            let x1 = ws.map(\.right).max()!, y1 = ws.map(\.bottom).max()!
            let letters = ws.reduce(0) { $0 + $1.text.unicodeScalars.filter { $0.properties.isAlphabetic }.count }
            return Line(number: n, x: x0, y: y0, width: x1 - x0, height: y1 - y0,
                        confidence: ReadingPlan.meanConfidence(ws), letters: letters)
        }
        let sure = lines.filter { $0.confidence >= unsureBelow && $0.letters >= minLetters }.map(\.height).sorted()
        guard !sure.isEmpty else { return [] }
        let typical = Double(sure[sure.count / 2])
        let range = (listHeightRange.lowerBound * typical)...(listHeightRange.upperBound * typical)
        return lines.filter { $0.confidence < unsureBelow && $0.letters >= minLetters && range.contains(Double($0.height)) }
            .sorted { $0.letters != $1.letters ? $0.letters > $1.letters : $0.number < $1.number }
            .prefix(maxLines).map { $0 }
    }

    /// The crop of `line` (with a margin of half its height, within the image) and the scale that
    /// brings its print to `targetCapHeight`; nil when it is big enough already.
    static func crop(_ line: Line, imageWidth: Int, imageHeight: Int) -> (x: Int, y: Int, width: Int, height: Int, scale: Double)? {
        guard line.height > 0 else { return nil }
        let scale = min(maxScale, targetCapHeight / (capShare * Double(line.height)))
        guard scale >= 1.2 else { return nil }
        let m = max(2, line.height / 2)
        let x0 = max(0, line.x - m), y0 = max(0, line.y - m)
        let x1 = min(imageWidth, line.x + line.width + m), y1 = min(imageHeight, line.y + line.height + m)
        guard x1 > x0, y1 > y0 else { return nil }
        let s = min(scale, (Double(maxCropPixels) / Double((x1 - x0) * (y1 - y0))).squareRoot())
        guard s >= 1.2 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0, s)
    }

    /// Whether a line's new reading replaces the old: surer by `margin`, with letters enough.
    static func keeps(_ again: [RecognizedWord], over old: [RecognizedWord]) -> Bool {
        let letters = again.reduce(0) { $0 + $1.text.unicodeScalars.filter { $0.properties.isAlphabetic }.count }
        return letters >= minLetters && ReadingPlan.meanConfidence(again) > ReadingPlan.meanConfidence(old) + margin
    }

    /// `words` with `line`'s words replaced by `again`, read on a crop at `origin` enlarged `scale`
    /// times: boxes back in the page's pixels, on the old line's number, in its place.
    static func replacing(_ words: [RecognizedWord], line: Int, with again: [RecognizedWord],
                          origin: (x: Int, y: Int), scale: Double) -> [RecognizedWord] {
        guard let first = words.firstIndex(where: { $0.line == line }) else { return words }
        let mapped = again.map { w in
            RecognizedWord(text: w.text, confidence: w.confidence,
                           left: origin.x + Int(Double(w.left) / scale), top: origin.y + Int(Double(w.top) / scale),
                           right: origin.x + Int(Double(w.right) / scale), bottom: origin.y + Int(Double(w.bottom) / scale),
                           line: line)
        }
        var out = Array(words[..<first])
        out += mapped
        out += words[first...].filter { $0.line != line }
        return out
    }
}

extension TesseractLabelReader {
    /// The unsure lines of a piece's reading read again alone (`LineRetry`), while time is left;
    /// a line's new words are kept only when surer.
    static func retryUnsureLines(_ words: [RecognizedWord], in image: PixImage, with engine: TesseractEngine,
                                 tryInverted: Bool, timeLeft: () -> Int) throws -> [RecognizedWord] {
        var words = words
        for line in LineRetry.unsureLines(words) {
            let rest = timeLeft()
            guard rest >= LineRetry.minLineMs,
                  let c = LineRetry.crop(line, imageWidth: image.width, imageHeight: image.height) else { continue }
            let crop = try image.cropped(x: c.x, y: c.y, width: c.width, height: c.height).scaled(c.scale)
            let again = try engine.recognize(crop, pageSegMode: LineRetry.lineMode, budgetMs: rest, tryInverted: tryInverted)
            let old = words.filter { $0.line == line.number }
            guard !again.timedOut, LineRetry.keeps(again.words, over: old) else { continue }
            words = LineRetry.replacing(words, line: line.number, with: again.words, origin: (c.x, c.y), scale: c.scale)
        }
        return words
    }
}
