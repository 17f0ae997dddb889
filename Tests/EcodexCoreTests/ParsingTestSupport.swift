import Testing
import EcodexCore

/// Shared parser and helpers for the parsing tests.
enum ParsingTestSupport {
    static let parser = IngredientParser(lexicon: ParsingFixtureLexicon.shared)

    /// Canonical codes of the mentions in `text`, in label order.
    static func codes(_ text: String, words: [OCRWord]? = nil) -> [String] {
        parser.parse(text, words: words).mentions.map(\.code.description)
    }

    /// The original text a mention's span points at.
    static func spanText(_ text: String, _ m: Mention) -> String {
        String(decoding: Array(text.utf8)[m.span], as: UTF8.self)
    }

    /// Expects exactly `expected` codes in `text`.
    static func expectCodes(_ text: String, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let got = codes(text)
        #expect(got == expected, "\(text)", sourceLocation: sourceLocation)
    }

    /// Expects the single mention of `text` to have `code`, `kind`, and a span over `spanned`.
    static func expectMention(_ text: String, code: String, kind: MatchKind, spanned: String? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let r = parser.parse(text)
        #expect(r.mentions.count == 1, "\(text) → \(r.mentions.map(\.code))", sourceLocation: sourceLocation)
        guard let m = r.mentions.first else { return }
        #expect(m.code.description == code, "\(text)", sourceLocation: sourceLocation)
        #expect(m.kind == kind, "\(text): \(m.kind)", sourceLocation: sourceLocation)
        if let spanned {
            #expect(spanText(text, m) == spanned, "\(text)", sourceLocation: sourceLocation)
        }
    }
}
