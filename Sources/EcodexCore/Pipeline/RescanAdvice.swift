/// Whether a photo's reading asks the shopper for a rescan, and why: a pure decision on what
/// the reader measured, so it is table-tested without Tesseract.
///
/// A prompt the shopper does not need teaches them to ignore prompts, so one is given only
/// when the reading is likely incomplete (`likelyIncomplete`). It then names one cause, the
/// likeliest, in this order: too dark (nothing else measures well in the dark), small print
/// (the reader cannot fix it at all), glare, blur, curved text; `hardToRead` when none was measured.
public enum RescanAdvice {
    /// What the decision looks at, taken from a reading (`init(_:found:)`) or written out in tests.
    public struct Evidence: Sendable, Equatable {
        /// Words read, and how many of them were read unsure (below `OCRSummary.unsureBelow`).
        public var words: Int
        public var unsureWords: Int
        /// Words of an ingredient list read surely (`LabelLanguages.listWordCount`).
        public var listWords: Int
        /// Additives found in what was read.
        public var found: Int
        /// Height of the print in the photo, pixels (`OCRResult.printHeight`).
        public var printHeight: Double?
        public var capture: CaptureQuality?

        public init(words: Int, unsureWords: Int, listWords: Int, found: Int, printHeight: Double? = nil,
                    capture: CaptureQuality? = nil) {
            self.words = words; self.unsureWords = unsureWords; self.listWords = listWords; self.found = found
            self.printHeight = printHeight; self.capture = capture
        }

        public init(_ ocr: OCRResult, found: Int) {
            self.init(words: ocr.words.count, unsureWords: ocr.words.filter { $0.confidence < OCRSummary.unsureBelow }.count,
                      listWords: LabelLanguages.listWordCount(ocr.words.map { ($0.text, $0.confidence) }), found: found,
                      printHeight: ocr.printHeight, capture: ocr.capture)
        }

        /// The share of the words read unsure (1 when none was read).
        public var unsureShare: Double { words == 0 ? 1 : Double(unsureWords) / Double(words) }
    }

    /// Print whose characters are under this many pixels high in the photo is too small to read.
    public static let smallPrintBelow = 8.0
    /// Mean luminance of the text region below which the photo is too dark.
    public static let darkBelow = 60.0
    /// Share of the text region and its margin blown out to white from which glare hides print.
    public static let glareFrom = 0.1
    /// Edge spread, as a share of the print's height, from which the print is blurred.
    public static let blurFrom = 0.25
    /// Bow of the text lines, in print heights, from which the text runs round a curve.
    public static let curveFrom = 0.6
    /// A reading with at least this share of its words unsure is likely incomplete...
    public static let unsureShareFrom = 0.55
    /// ...and so is one that found no additive and read fewer list words than this surely.
    public static let listWordsFrom = 3

    /// The reading likely missed part of the list: most of its words are unsure, it read almost
    /// none of an ingredient list's words surely and found nothing (nothing read is both), glare
    /// hides part of the text, or the text runs round a curve (its ends out of sight).
    public static func likelyIncomplete(_ e: Evidence) -> Bool {
        e.unsureShare >= unsureShareFrom || (e.listWords < listWordsFrom && e.found == 0)
            || (e.capture?.glare ?? 0) >= glareFrom || (e.capture?.curve ?? 0) >= curveFrom
    }

    /// The rescan prompt for a reading, or nil when it is likely complete; `photos` for a burst.
    public static func prompt(_ e: Evidence, photos: Bool = false) -> ScanWarning? {
        guard likelyIncomplete(e) else { return nil }
        if let c = e.capture, c.brightness < darkBelow { return .tooDark(photos: photos) }
        if let h = e.printHeight, h < smallPrintBelow { return .printTooSmall(photos: photos) }
        guard let c = e.capture else { return .hardToRead(photos: photos) }
        if c.glare >= glareFrom { return .glare(photos: photos) }
        if let b = c.blur, b >= blurFrom { return .blurred(photos: photos) }
        if let b = c.curve, b >= curveFrom { return .curvedText(photos: photos) }
        return .hardToRead(photos: photos)
    }
}
