import Foundation
import Testing
import EcodexCore

@Suite("Parsing: corpora")
struct ParsingCorpusTests {
    typealias S = ParsingTestSupport

    /// `e160ai` → 160, `e14xx` → nil: OFF tags compared at the E-number level.
    static func offBase(_ tag: String) -> Int? {
        // `e14xx` is OFF's family tag for modified starches, which have no single code.
        guard let n = Int(tag.dropFirst().prefix { $0.isNumber }), n >= 100 else { return nil }
        return n
    }

    @Test("The 645 synonyms are found as their code")
    func synonymRecall() {
        let rows = ParsingFixtureLexicon.jsonLines("additive-synonyms.jsonl")
        var plain = 0, inContext = 0
        var misses: [String] = []
        func finds(_ text: String, _ expected: ECode) -> Bool {
            S.parser.parse(text).mentions.contains { $0.code == expected || $0.code.base == expected.base }
        }
        for row in rows {
            guard let name = row["name"] as? String, let code = row["code"] as? String,
                  let expected = ECode(code) else { continue }
            // As a plain list item, and after a generic header for names that need additive context.
            if finds("Sugar, \(name), salt", expected) {
                plain += 1
                inContext += 1
            } else if finds("Sugar, food additive: \(name), salt", expected) {
                inContext += 1
            } else {
                misses.append("\(name)→\(code) got \(S.codes("Sugar, \(name), salt"))")
            }
        }
        let recall = Double(inContext) / Double(rows.count)
        print("synonym recall: plain list \(plain)/\(rows.count), with context \(inContext)/\(rows.count) = \(String(format: "%.1f", recall * 100))%")
        for m in misses { print("  miss: \(m)") }
        #expect(rows.count == 645)
        #expect(recall >= 0.95)
    }

    @Test("Open Food Facts parser cases agree at the E-number level")
    func offCases() {
        var agreed = 0, total = 0
        for row in ParsingFixtureLexicon.jsonLines("parser-cases.jsonl") {
            if row["conflict"] as? Bool == true { continue }
            guard let text = row["text"] as? String, let expected = row["expected"] as? [String] else { continue }
            total += 1
            let want = Set(expected.compactMap(Self.offBase))
            let got = Set(S.parser.parse(text).mentions.map(\.code.number))
            if want == got {
                agreed += 1
            } else {
                let id = row["test_id"] as? String ?? ""
                print("OFF disagree \(id): missing \(want.subtracting(got).sorted()) extra \(got.subtracting(want).sorted())")
            }
        }
        print("OFF parser agreement: \(agreed)/\(total)")
        #expect(total == 88)
        // Floors only rise. The rest are decisions, listed in docs/accuracy.md; through `scan text`
        // and the shipped store: `goldset/tools/parser_cases.py off`. 80 → 79 on purpose:
        // `fr-acides-gras-false-positive` expects E570 from `acides gras saturés` in a nutrition
        // table, which OFF's own test marks a false positive; names qualified as saturated no
        // longer count (they were E570 false positives on real phone frames too). 79 → 78 on
        // purpose: the candied-fruit case writes `épaississant: gommexanthane`, xanthan gum as
        // one word, which compounds now read as E415; OFF's expectation has no E415. 78 → 75 on
        // purpose: `fr-lait-vitamines`, `fr-preparation-nourrissons` and `fr-dextrines-maltees`
        // list salts and sodium ascorbate under a minerals or vitamins header, which OFF does not
        // count; the shared real-photo manifest and the gold truth do ("calcium carbonate
        // (mineral use)" is E170), and Ecodex now follows them.
        #expect(agreed >= 75)
    }

    /// `E503(ii)` → `E503`, `E160a(ii)` → `E160a`: the level a label's truth is written at.
    static func labelLevel(_ code: String) -> String {
        String(code.prefix { $0 != "(" })
    }

    @Test("51 held-out lists in six regions' wordings give exactly their additives (shipped data)")
    func regionalLists() {
        let rows = ParsingFixtureLexicon.jsonLines("regional-lists.jsonl")
        #expect(rows.count == 51)
        var found = 0, expected = 0
        for row in rows {
            guard let id = row["id"] as? String, let text = row["text"] as? String,
                  let codes = row["codes"] as? [String] else { continue }
            let missesKnown = Set(row["knownMisses"] as? [String] ?? [])
            let got = Set(ParsingConventionTests.shipped.parse(text).mentions.map { Self.labelLevel($0.code.description) })
            let want = Set(codes).subtracting(missesKnown)
            #expect(got == want, "\(id): got \(got.sorted()), want \(want.sorted())")
            found += got.intersection(codes).count
            expected += codes.count
        }
        // 233 additives, 1 of them a known miss (see the row's note).
        #expect(expected == 233)
        #expect(found >= 232)
    }

    @Test("All 307 real ingredient texts parse, spans inside the text")
    func realTexts() {
        let rows = ParsingFixtureLexicon.jsonLines("ingredient-texts.jsonl")
        #expect(rows.count == 307)
        var mentions = 0
        for row in rows {
            guard let text = row["text"] as? String else { continue }
            let r = S.parser.parse(text)
            mentions += r.mentions.count
            let n = text.utf8.count
            for m in r.mentions {
                #expect(m.span.lowerBound >= 0 && m.span.upperBound <= n && !m.span.isEmpty)
                #expect((0...1).contains(m.confidence))
            }
            #expect(zip(r.mentions, r.mentions.dropFirst()).allSatisfy { $0.span.lowerBound <= $1.span.lowerBound })
        }
        print("real texts: \(rows.count) texts, \(mentions) mentions")
    }

    @Test("Random mixes of code-like pieces never trap and keep spans inside the text")
    func structuredFuzz() {
        let pieces = ["E", "e", "INS", "SIN", "N°", "#", "£", "€", "F", "C", "1", "2", "0", "330", "1422", "150", "d",
                      "ii", "(", ")", "[", "]", ":", ",", ";", ".", "-", " ", " ", "\n", "-\n", "colour", "caramel",
                      "citric acid", "Farbstoff", "and", "et", "vitamins", "%", "g", "l", "O", "S", "é", "\u{301}",
                      "\u{435}", "３", "\u{0}", "\u{FFFD}", "ß", "mono-", "diglycerides", "FD&C", "Yellow", "No", "5"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...40, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let r = S.parser.parse(text)
            let n = text.utf8.count
            for m in r.mentions {
                #expect(m.span.lowerBound >= 0 && m.span.upperBound <= n, "\(text.debugDescription)")
            }
        }
    }

    @Test("Garbage finishes: random bytes, control characters, a 5 MB line")
    func garbage() {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        _ = S.parser.parse(String(decoding: bytes, as: UTF8.self))
        let controls = String(decoding: (0..<50_000).map { UInt8($0 % 32) }, as: UTF8.self)
        _ = S.parser.parse(controls)
        let unit = "E330 (((( ]]]] :::: e e e E E 1 1 1 INS N° £ colour: (caramel, "
        let big = String(repeating: unit, count: 5_000_000 / unit.utf8.count)
        let r = S.parser.parse(big)
        #expect(r.mentions.count > 0)
        let noSeparators = String(repeating: "tartrazine E102 sugar ", count: 50_000)
        #expect(S.parser.parse(noSeparators).mentions.count == 50_000)
        _ = S.parser.parse("")
        _ = S.parser.parse("(")
        _ = S.parser.parse(")))")
        _ = S.parser.parse("E")
        _ = S.parser.parse("leci-\n")
    }
}
