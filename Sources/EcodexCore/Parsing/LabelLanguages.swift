import Foundation

/// Which label languages a first, rough reading shows, from the words every ingredient list
/// uses: function words (`und`, `avec`, `della`) and list words (`Zutaten`, `sucre`,
/// `conservante`). The OCR re-reads an unsure page with English and the languages found
/// here instead of all six models at once (a third of the memory and time), and with all
/// six when nothing is found.
///
/// Codes are ISO 639-2/T, the names of Tesseract's language files (`ocr_model` of a pack's
/// language). A word two languages share counts half for each.
public enum LabelLanguages {
    /// Tesseract model → words (the `list_words` of the pack's languages); accents are folded away before comparing.
    static var words: [(code: String, words: String)] { LabelTables.current.listWords }

    /// A language is shown by at least this many words (shared words counting half)...
    static let minimumScore = 2.0
    /// ...and by at least this share of the best language's words (a mixed panel shows two or three).
    static let minimumShareOfBest = 0.34
    /// Unsure words count only from this length: short unsure "words" are mostly specks.
    static let minimumUnsureLetters = 4
    /// Words this long also match a list word one slip away (`Farbstott`, `Zutaten` read `Zataten`).
    static let minimumFuzzyLetters = 6

    private struct Tables {
        let codes: [String]
        /// Folded word → indices of the languages using it.
        let exact: [String: [Int]]
        /// Long folded words with their languages, for one-slip matches.
        let long: [(letters: [UInt32], languages: [Int])]
    }

    private static let tables: Tables = {
        var exact: [String: [Int]] = [:]
        for (i, row) in words.enumerated() {
            for w in row.words.split(whereSeparator: \.isWhitespace) {
                let key = fold(String(w))
                if exact[key]?.contains(i) != true { exact[key, default: []].append(i) }
            }
        }
        let long = exact.filter { $0.key.count >= minimumFuzzyLetters }
            .map { (letters: $0.key.unicodeScalars.map(\.value), languages: $0.value) }
        return Tables(codes: words.map(\.code), exact: exact, long: long)
    }()

    static func fold(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// How many of `words` are read surely (at or above `OCRSummary.unsureBelow`) and are words
    /// of an ingredient list in a label language: how much of the list a frame really read.
    ///
    /// A burst's lead frame is the one with most (`ScanPipeline.scanBurst`): mean confidence alone
    /// picks the frame that read a slogan in big print best, not the small ingredient list.
    public static func listWordCount(_ words: [(text: String, confidence: Double)]) -> Int {
        let t = tables
        var count = 0
        for word in words where word.confidence >= OCRSummary.unsureBelow {
            for piece in word.text.split(whereSeparator: { !$0.isLetter }) where piece.count >= 2 {
                if t.exact[fold(String(piece))] != nil { count += 1 }
            }
        }
        return count
    }

    /// The languages `words` show, best first (empty when none stands out). A word is read
    /// unsure below `OCRSummary.unsureBelow`.
    public static func guess(_ words: [(text: String, confidence: Double)]) -> [String] {
        let t = tables
        var score = [Double](repeating: 0, count: t.codes.count)
        for word in words {
            let unsure = word.confidence < OCRSummary.unsureBelow
            for piece in word.text.split(whereSeparator: { !$0.isLetter }) {
                let key = fold(String(piece))
                guard key.count >= 2, !unsure || key.count >= minimumUnsureLetters else { continue }
                var hit = t.exact[key] ?? []
                if hit.isEmpty, key.count >= minimumFuzzyLetters {
                    let letters = key.unicodeScalars.map(\.value)
                    letters.withUnsafeBufferPointer { x in
                        for entry in t.long where EditDistance.withinOne(x, entry.letters[...]) {
                            for l in entry.languages where !hit.contains(l) { hit.append(l) }
                        }
                    }
                }
                for l in hit { score[l] += 1 / Double(hit.count) }
            }
        }
        let best = score.max() ?? 0
        return score.indices
            .filter { score[$0] >= minimumScore && score[$0] >= minimumShareOfBest * best }
            .sorted { score[$0] != score[$1] ? score[$0] > score[$1] : $0 < $1 }
            .map { t.codes[$0] }
    }
}
