/// The result of scanning one input: what the JSON contract in DESIGN.md prints.
public struct ScanReport: Sendable, Equatable {
    public var input: String
    public var region: Region
    public var dataVersion: String
    public var packVersion: String
    public var ocr: OCRSummary?
    public var additives: [Finding]
    public var unmatched: [String]
    public var barcode: Barcode?
    /// True when the barcode path was tried because OCR gave too little.
    public var fallbackUsed: Bool
    /// Preprocessing steps that ran on the image.
    public var preprocessing: [String]
    public var timingsMs: Timings
    /// Recoverable problems and prompts for the shopper (low confidence, nothing found).
    public var warnings: [ScanWarning]
    /// The photo with the words of each additive outlined, for the HTML page (not in JSON).
    public var photo: PhotoView?
    /// Whether the ingredients could be read: a result with none found means "no additives"
    /// only when it is `.read`.
    public var status: ReadStatus = .read
    /// The photos of a burst that could not be read, each with its error (not in JSON).
    public var skippedFrames: [SkippedFrame] = []

    public init(input: String, region: Region, versions: DataVersions, ocr: OCRSummary? = nil,
                additives: [Finding] = [], unmatched: [String] = [], barcode: Barcode? = nil,
                fallbackUsed: Bool = false, preprocessing: [String] = [], timingsMs: Timings = Timings(),
                warnings: [ScanWarning] = []) {
        self.input = input; self.region = region
        self.dataVersion = versions.dataVersion; self.packVersion = versions.packVersion
        self.ocr = ocr; self.additives = additives; self.unmatched = unmatched; self.barcode = barcode
        self.fallbackUsed = fallbackUsed; self.preprocessing = preprocessing
        self.timingsMs = timingsMs; self.warnings = warnings
    }

    /// Flagged = red or yellow; neutral = green.
    public var summary: Summary {
        Summary(flagged: additives.filter { $0.badge != .green }.count,
                neutral: additives.filter { $0.badge == .green }.count,
                unmatched: unmatched.count)
    }
}

/// A photo of a burst that could not be read: which one (1-based), its path, and why.
public struct SkippedFrame: Sendable, Equatable {
    public let frame: Int
    public let path: String
    public let error: any Error

    public init(frame: Int, path: String, error: any Error) {
        self.frame = frame; self.path = path; self.error = error
    }

    public static func == (a: SkippedFrame, b: SkippedFrame) -> Bool {
        a.frame == b.frame && a.path == b.path && "\(a.error)" == "\(b.error)"
    }
}

/// How much of the ingredient list a result rests on. Typed text, codes and product lists are
/// `.read`; a photo is `.unreadable` when its reading was unsure and found nothing, and
/// `.partlyRead` when it was unsure or cut short but found something.
public enum ReadStatus: String, Sendable, Equatable, CaseIterable {
    case read
    case partlyRead = "partly-read"
    case unreadable
}

/// A photo as the HTML page shows it: a small copy, with the words that named each
/// additive outlined and numbered like its card, and the words read unsure marked.
/// Boxes are in the copy's pixels.
public struct PhotoView: Sendable, Equatable {
    public struct Mark: Sendable, Equatable {
        /// The card's number, 1 for the first additive.
        public var number: Int
        public var code: ECode
        public var boxes: [BoundingBox]
        public init(number: Int, code: ECode, boxes: [BoundingBox]) {
            self.number = number; self.code = code; self.boxes = boxes
        }
    }
    public var preview: PhotoPreview
    public var marks: [Mark]
    /// Words read with low confidence (below `OCRSummary.unsureBelow`) that name no additive.
    public var unsure: [BoundingBox]

    public init(preview: PhotoPreview, marks: [Mark], unsure: [BoundingBox]) {
        self.preview = preview; self.marks = marks; self.unsure = unsure
    }

    /// Outlines the words of `findings` (by their text spans) on `preview`; nil when
    /// the words carry no photo boxes.
    public static func make(preview: PhotoPreview, words: [OCRWord], findings: [Finding]) -> PhotoView? {
        guard words.contains(where: { $0.photoBox != nil }) else { return nil }
        let ranges = OCRResult.byteRanges(words)
        func scaled(_ b: BoundingBox) -> BoundingBox {
            let s = preview.scale
            let x0 = Int((Double(b.x) * s).rounded(.down)), y0 = Int((Double(b.y) * s).rounded(.down))
            let x1 = Int((Double(b.x + b.width) * s).rounded(.up)), y1 = Int((Double(b.y + b.height) * s).rounded(.up))
            return BoundingBox(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
        }
        var used = Set<Int>()
        var marks: [Mark] = []
        for (n, f) in findings.enumerated() {
            var boxes: [BoundingBox] = []
            for span in f.spans {
                for (i, r) in ranges.enumerated() where r.overlaps(span) {
                    guard let b = words[i].photoBox else { continue }
                    used.insert(i)
                    boxes.append(scaled(b))
                }
            }
            marks.append(Mark(number: n + 1, code: f.code, boxes: boxes))
        }
        let unsure = words.indices.compactMap { i -> BoundingBox? in
            guard !used.contains(i), words[i].confidence < OCRSummary.unsureBelow, let b = words[i].photoBox else { return nil }
            return scaled(b)
        }
        return PhotoView(preview: preview, marks: marks, unsure: unsure)
    }
}

public struct Summary: Codable, Sendable, Equatable {
    public var flagged: Int
    public var neutral: Int
    public var unmatched: Int
    public init(flagged: Int, neutral: Int, unmatched: Int) {
        self.flagged = flagged; self.neutral = neutral; self.unmatched = unmatched
    }
}

public struct OCRSummary: Codable, Sendable, Equatable {
    public var meanConfidence: Double
    /// The reading is likely incomplete (`RescanAdvice.likelyIncomplete`): the same decision as the rescan prompt.
    public var lowConfidence: Bool
    public var tokens: Int
    /// The text as read, lines kept, words read with low confidence marked `⟨like this⟩`,
    /// so a shopper can check it, correct it and pass it to `scan text`.
    public var text: String
    /// For a burst: how many frames were read, and the one whose text is shown.
    public var frames: Int?
    public var frame: String?
    /// Height of the print in the photo, pixels (`OCRResult.printHeight`), rounded to a tenth.
    public var printHeight: Double?
    /// How the photo was taken (`OCRResult.capture`), rounded.
    public var capture: CaptureQuality?

    public init(meanConfidence: Double, lowConfidence: Bool, tokens: Int, text: String = "") {
        self.meanConfidence = meanConfidence; self.lowConfidence = lowConfidence; self.tokens = tokens
        self.text = text
    }

    /// Summarises one reading.
    public init(_ ocr: OCRResult, lowConfidence: Bool) {
        self.init(meanConfidence: (ocr.meanConfidence * 10).rounded() / 10, lowConfidence: lowConfidence,
                  tokens: ocr.words.count, text: Self.markedText(ocr.words))
        printHeight = ocr.printHeight.map { ($0 * 10).rounded() / 10 }
        capture = ocr.capture?.rounded
    }

    /// Words below this confidence (0...100) are marked as unsure in `text`.
    public static let unsureBelow = 60.0
    public static let unsureOpen = "⟨", unsureClose = "⟩"

    /// Words joined by spaces and lines by newlines, unsure words between ⟨ and ⟩. The
    /// marks may stay when the text is passed back to `scan text`: the parser reads past them.
    public static func markedText(_ words: [OCRWord]) -> String {
        OCRResult.joined(words) { $0.confidence < unsureBelow ? unsureOpen + $0.text + unsureClose : $0.text }
    }
}

public struct Timings: Codable, Sendable, Equatable {
    public var preprocess: Double = 0
    public var ocr: Double = 0
    public var parse: Double = 0
    public var assess: Double = 0
    public var total: Double = 0
    public init() {}
}

/// One additive on the label with its verdict: a card in the output.
public struct Finding: Sendable, Equatable {
    public var code: ECode
    /// The name for the active region (`FD&C Yellow No. 5` in the US).
    public var name: String
    public var badge: Badge
    public var matchedText: [String]
    public var matchKind: MatchKind
    public var function: String?
    /// The one plain line.
    public var risk: String
    public var audience: [String]
    public var diet: Dietary
    /// Why the badge is what it is, most severe first.
    public var reasons: [String]
    /// The label statement the region requires, if any.
    public var statement: String?
    public var references: [Reference]
    /// The badge in each compared region (`--compare`); empty otherwise.
    public var regionBadges: [Region: Badge]
    /// UTF-8 byte ranges of the label text that named it (every mention), for outlining
    /// its words on the photo.
    public var spans: [Range<Int>] = []

    public init(code: ECode, name: String, badge: Badge, matchedText: [String], matchKind: MatchKind,
                function: String?, risk: String, audience: [String], diet: Dietary, reasons: [String],
                statement: String?, references: [Reference], regionBadges: [Region: Badge] = [:]) {
        self.code = code; self.name = name; self.badge = badge; self.matchedText = matchedText
        self.matchKind = matchKind; self.function = function; self.risk = risk; self.audience = audience
        self.diet = diet; self.reasons = reasons; self.statement = statement; self.references = references
        self.regionBadges = regionBadges
    }
}
