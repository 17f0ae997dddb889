/// OCR word confidences laid over the text they were joined into.
///
/// The OCR stage joins words with spaces and newlines, so each word is found
/// in the text in reading order; a word that cannot be found (text edited
/// after OCR) is skipped rather than guessed.
struct WordConfidence {
    /// Byte ranges of located words, ascending, with confidence 0...1.
    private var ranges: [(range: Range<Int>, confidence: Double)] = []

    init(bytes: [UInt8], words: [OCRWord]) {
        var cursor = 0
        for w in words {
            let needle = Array(w.text.utf8)
            guard !needle.isEmpty else { continue }
            // Search a bounded window so a missing word cannot make this quadratic.
            let limit = min(bytes.count - needle.count, cursor + 256)
            var found: Int?
            if limit >= cursor {
                var i = cursor
                while i <= limit {
                    if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { found = i; break }
                    i += 1
                }
            }
            if let f = found {
                ranges.append((f..<(f + needle.count), max(0, min(1, w.confidence / 100))))
                cursor = f + needle.count
            }
        }
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// Mean confidence of the words overlapping `span`, or nil when none do.
    func mean(over span: Range<Int>) -> Double? {
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].range.upperBound <= span.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var sum = 0.0, n = 0
        var i = lo
        while i < ranges.count, ranges[i].range.lowerBound < span.upperBound {
            sum += ranges[i].confidence
            n += 1
            i += 1
        }
        return n == 0 ? nil : sum / Double(n)
    }
}
