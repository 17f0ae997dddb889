import Testing
@testable import EcodexCore

/// The rescan decision as a table: a prompt only for a likely incomplete reading, naming one cause.
@Suite struct RescanAdviceTests {
    static let clean = CaptureQuality(brightness: 150, glare: 0, blur: 0.1, curve: 0.05)

    static func capture(brightness: Double = 150, glare: Double = 0, blur: Double? = 0.1, curve: Double? = 0.05) -> CaptureQuality {
        CaptureQuality(brightness: brightness, glare: glare, blur: blur, curve: curve)
    }

    /// 100 words, `unsure` of them unsure, 20 list words read surely unless said otherwise.
    static func reading(unsure: Int, listWords: Int = 20, found: Int = 0, printHeight: Double? = 12,
                        capture: CaptureQuality? = clean) -> RescanAdvice.Evidence {
        RescanAdvice.Evidence(words: 100, unsureWords: unsure, listWords: listWords, found: found,
                              printHeight: printHeight, capture: capture)
    }

    @Test(arguments: [
        // Likely complete: no prompt, whatever the photo looks like.
        (reading(unsure: 20), nil),
        (reading(unsure: 54, printHeight: 5, capture: capture(brightness: 30, glare: 0.09, blur: 0.6, curve: 0.59)), nil),
        (reading(unsure: 10, listWords: 2, found: 1), nil),
        // Likely incomplete: mostly unsure, or hardly any list words and nothing found.
        (reading(unsure: 55), ScanWarning.hardToRead(photos: false)),
        (reading(unsure: 10, listWords: 2, found: 0), .hardToRead(photos: false)),
        (RescanAdvice.Evidence(words: 0, unsureWords: 0, listWords: 0, found: 0), .hardToRead(photos: false)),
        (reading(unsure: 10, found: 2, capture: capture(glare: 0.1)), .glare(photos: false)),
        (reading(unsure: 10, found: 2, capture: capture(curve: 0.6)), .curvedText(photos: false)),
        // One cause each.
        (reading(unsure: 80, printHeight: 7.9), .printTooSmall(photos: false)),
        (reading(unsure: 80, capture: capture(brightness: 40)), .tooDark(photos: false)),
        (reading(unsure: 80, capture: capture(glare: 0.15)), .glare(photos: false)),
        (reading(unsure: 80, capture: capture(blur: 0.45)), .blurred(photos: false)),
        (reading(unsure: 80, capture: capture(curve: 0.9)), .curvedText(photos: false)),
        // Just under every threshold: no cause measured.
        (reading(unsure: 80, printHeight: 8, capture: capture(brightness: 60, glare: 0.099, blur: 0.249, curve: 0.599)),
         .hardToRead(photos: false)),
        (reading(unsure: 80, printHeight: nil, capture: nil), .hardToRead(photos: false)),
        // The likeliest cause wins: dark, then small print, glare, blur, curve.
        (reading(unsure: 80, printHeight: 6, capture: capture(brightness: 30, glare: 0.2, blur: 0.6, curve: 2)), .tooDark(photos: false)),
        (reading(unsure: 80, printHeight: 6, capture: capture(glare: 0.2, blur: 0.6, curve: 2)), .printTooSmall(photos: false)),
        (reading(unsure: 80, capture: capture(glare: 0.2, blur: 0.6, curve: 2)), .glare(photos: false)),
        (reading(unsure: 80, capture: capture(blur: 0.6, curve: 2)), .blurred(photos: false)),
    ] as [(RescanAdvice.Evidence, ScanWarning?)])
    func promptsOnlyALikelyIncompleteReadingWithOneCause(_ evidence: RescanAdvice.Evidence, _ prompt: ScanWarning?) {
        #expect(RescanAdvice.prompt(evidence) == prompt)
    }

    @Test func aBurstIsToldInThePlural() {
        #expect(RescanAdvice.prompt(Self.reading(unsure: 80, capture: Self.capture(blur: 0.5)), photos: true) == .blurred(photos: true))
    }

    @Test func evidenceIsTakenFromTheReading() {
        let words = ["Zutaten:", "Zucker,", "Salz,", "xq"].enumerated().map { i, t in
            OCRWord(text: t, confidence: i == 3 ? 20 : 90, box: BoundingBox(x: i * 20, y: 0, width: 18, height: 10), line: 0)
        }
        var ocr = OCRResult(words: words, steps: [], preprocessMs: 0, ocrMs: 0)
        ocr.capture = Self.clean
        let e = RescanAdvice.Evidence(ocr, found: 0)
        #expect(e.words == 4 && e.unsureWords == 1 && e.listWords == 3 && e.capture == Self.clean)
        #expect(RescanAdvice.prompt(e) == nil)
    }
}
