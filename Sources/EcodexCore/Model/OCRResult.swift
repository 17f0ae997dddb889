/// A rectangle in image pixels (origin top-left) of the image OCR saw.
public struct BoundingBox: Codable, Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// One word as Tesseract read it.
public struct OCRWord: Sendable, Equatable {
    public var text: String
    /// 0...100, as Tesseract reports it.
    public var confidence: Double
    public var box: BoundingBox
    /// Index of the text line the word is on, in reading order.
    public var line: Int
    /// The word's box on the photo as taken (before any crop, rescale, turn or
    /// straightening), when the reader could map it back; `box` is in the image Tesseract read.
    public var photoBox: BoundingBox?

    public init(text: String, confidence: Double, box: BoundingBox, line: Int, photoBox: BoundingBox? = nil) {
        self.text = text; self.confidence = confidence; self.box = box; self.line = line
        self.photoBox = photoBox
    }
}

/// A small copy of the photo for the HTML page, kept only when asked for.
public struct PhotoPreview: Sendable, Equatable {
    /// JPEG bytes.
    public var jpeg: [UInt8]
    /// Size of the copy in pixels.
    public var width: Int, height: Int
    /// Pixels of the copy per pixel of the photo (≤ 1).
    public var scale: Double

    public init(jpeg: [UInt8], width: Int, height: Int, scale: Double) {
        self.jpeg = jpeg; self.width = width; self.height = height; self.scale = scale
    }
}

/// What the imaging and OCR stages produced for one image.
public struct OCRResult: Sendable {
    /// Words in reading order.
    public var words: [OCRWord]
    /// The full text: words joined by spaces, lines by newlines.
    public var text: String
    /// Mean word confidence, 0...100 (0 when no words).
    public var meanConfidence: Double
    /// Preprocessing steps that ran, in order (`grayscale`, `upscale x2.0`, `deskew 12.5°`, `invert`, ...).
    public var steps: [String]
    public var preprocessMs: Double
    public var ocrMs: Double
    /// Recognition stopped at its time limit: some text may be missing.
    public var timedOut: Bool
    /// A frame of a burst (not its first) that the burst's time ran out on: it keeps what it
    /// read by then, which may be nothing (`LabelReader.read(burstAt:within:)`). Not a hard
    /// photo, so no rescan warning; the burst says how many frames it read in full.
    public var outOfTime = false
    /// Median height of the printed characters in the photo as decoded, pixels (the median over
    /// the blocks read); nil when not measured. Small print is what real photos most often miss.
    public var printHeight: Double?
    /// How the photo was taken (light, glare, blur, curved lines), for a rescan prompt's cause.
    public var capture: CaptureQuality?
    /// A small copy of the photo, when the reader was asked to keep one (for the HTML page).
    public var preview: PhotoPreview?

    public init(words: [OCRWord], text: String, meanConfidence: Double, steps: [String],
                preprocessMs: Double, ocrMs: Double, timedOut: Bool = false) {
        self.words = words; self.text = text; self.meanConfidence = meanConfidence
        self.steps = steps; self.preprocessMs = preprocessMs; self.ocrMs = ocrMs
        self.timedOut = timedOut
    }

    /// Builds text and mean confidence from words.
    public init(words: [OCRWord], steps: [String], preprocessMs: Double, ocrMs: Double, timedOut: Bool = false) {
        let text = Self.joined(words)
        let mean = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
        self.init(words: words, text: text, meanConfidence: mean, steps: steps,
                  preprocessMs: preprocessMs, ocrMs: ocrMs, timedOut: timedOut)
    }
}

extension OCRResult {
    /// Words joined by spaces and lines by newlines; `mark` may wrap a word (an unsure one, say).
    public static func joined(_ words: [OCRWord], mark: ((OCRWord) -> String)? = nil) -> String {
        var text = ""
        var lastLine: Int?
        for w in words {
            if let l = lastLine { text += (l == w.line ? " " : "\n") }
            text += mark?(w) ?? w.text
            lastLine = w.line
        }
        return text
    }

    /// The UTF-8 byte range each word takes in `joined(words)`, in the same order.
    public static func byteRanges(_ words: [OCRWord]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(words.count)
        var offset = 0
        var lastLine: Int?
        for w in words {
            if lastLine != nil { offset += 1 }  // the space or newline before it
            let n = w.text.utf8.count
            ranges.append(offset..<(offset + n))
            offset += n
            lastLine = w.line
        }
        return ranges
    }
}

/// A barcode found in an image or typed by hand.
public struct Barcode: Codable, Sendable, Equatable {
    /// `EAN-13`, `EAN-8`, `UPC-A`, `UPC-E`.
    public var symbology: String
    public var digits: String
    public init(symbology: String, digits: String) {
        self.symbology = symbology; self.digits = digits
    }
}
