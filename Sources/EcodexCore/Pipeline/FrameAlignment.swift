/// Where one frame's words sit in another frame of the same burst.
///
/// The label moves a little between frames of a handheld burst: the shift is estimated from
/// words both frames read the same and only once (their centres' median offset), so a word
/// of one frame can be looked for at the same place in the other. Boxes are the words' photo
/// boxes when the reader mapped them (`OCRWord.photoBox`), else their boxes.
public struct FrameAlignment: Sendable, Equatable {
    /// Offset to add to a point of the first frame to find it in the second, pixels.
    public var dx: Double, dy: Double

    public init(dx: Double, dy: Double) { self.dx = dx; self.dy = dy }

    /// Words shorter than this (folded) are too common to anchor a shift or support a reading.
    static let minKeyLength = 3
    /// Anchors needed to trust a shift: one word read alike could be a coincidence.
    static let minAnchors = 2
    /// A word is at the same place when its centre, shifted, is within this many of its
    /// heights across and down (the label also turns and nears a little between frames).
    static let acrossHeights = 3.0
    static let downHeights = 1.5

    /// The shift from `a` to `b`, nil when fewer than `minAnchors` words read alike once in each
    /// frame agree on it (frames of different panels, or too little read).
    public static func between(_ a: [OCRWord], _ b: [OCRWord]) -> FrameAlignment? {
        let inB = uniqueWords(b)
        var offsets: [(dx: Double, dy: Double, height: Double)] = []
        for (key, w) in uniqueWords(a) {
            guard let v = inB[key] else { continue }
            let p = center(w), q = center(v)
            offsets.append((q.x - p.x, q.y - p.y, Double(max(height(w), height(v)))))
        }
        guard offsets.count >= minAnchors else { return nil }
        let shift = FrameAlignment(dx: median(offsets.map(\.dx)), dy: median(offsets.map(\.dy)))
        // Most anchors must agree with the median: a few chance matches give no shift.
        let agreeing = offsets.filter { abs($0.dx - shift.dx) <= acrossHeights * $0.height
            && abs($0.dy - shift.dy) <= downHeights * $0.height }
        return agreeing.count >= minAnchors && 2 * agreeing.count >= offsets.count ? shift : nil
    }

    /// True when `b` holds each of `words` (read in the first frame), read the same, at the place
    /// this shift puts it.
    public func finds(_ words: [OCRWord], in b: [OCRWord]) -> Bool {
        let keyed = words.compactMap { w in Self.key(w.text).map { (w, $0) } }
        guard !keyed.isEmpty else { return false }
        return keyed.allSatisfy { w, key in
            let p = Self.center(w)
            return b.contains { v in
                guard Self.key(v.text) == key else { return false }
                let q = Self.center(v), h = Double(max(Self.height(w), Self.height(v)))
                return abs(q.x - p.x - dx) <= Self.acrossHeights * h && abs(q.y - p.y - dy) <= Self.downHeights * h
            }
        }
    }

    /// The word's letters and digits, lowercased; nil when fewer than `minKeyLength`.
    static func key(_ text: String) -> String? {
        let k = String(text.lowercased().filter { $0.isLetter || $0.isNumber })
        return k.count >= minKeyLength ? k : nil
    }

    /// Words whose key occurs once in the frame, by key.
    private static func uniqueWords(_ words: [OCRWord]) -> [String: OCRWord] {
        var seen: [String: OCRWord] = [:]
        var repeated = Set<String>()
        for w in words {
            guard let k = key(w.text) else { continue }
            if seen[k] != nil { repeated.insert(k) } else { seen[k] = w }
        }
        for k in repeated { seen[k] = nil }
        return seen
    }

    private static func box(_ w: OCRWord) -> BoundingBox { w.photoBox ?? w.box }
    private static func height(_ w: OCRWord) -> Int { max(1, box(w).height) }
    private static func center(_ w: OCRWord) -> (x: Double, y: Double) {
        let b = box(w)
        return (Double(b.x) + Double(b.width) / 2, Double(b.y) + Double(b.height) / 2)
    }

    private static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
