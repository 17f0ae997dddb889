import Foundation
import Testing
import EcodexCore

/// Prints parser timings; runs only when `ECODEX_PARSER_BENCH` is set (numbers, not assertions).
@Suite("Parsing: benchmark")
struct ParsingBenchmarkTests {
    static var enabled: Bool { ProcessInfo.processInfo.environment["ECODEX_PARSER_BENCH"] != nil }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    @Test(.enabled(if: enabled))
    func throughput() {
        let clock = ContinuousClock()
        let lexicon = ParsingFixtureLexicon.shared
        var parser: IngredientParser?
        let build = clock.measure { parser = IngredientParser(lexicon: lexicon) }
        guard let parser else { return }
        print("bench: lexicon \(lexicon.entries.count) names, \(lexicon.knownCodes.count) codes; index build \(String(format: "%.1f", Self.seconds(build) * 1000)) ms")

        let texts = ParsingFixtureLexicon.jsonLines("ingredient-texts.jsonl").compactMap { $0["text"] as? String }
        let corpus = texts.joined(separator: "\n")
        var big = ""
        while big.utf8.count < 10_000_000 { big += corpus; big += "\n" }
        var mentions = 0
        let whole = clock.measure { mentions = parser.parse(big).mentions.count }
        let mb = Double(big.utf8.count) / 1_000_000
        print("bench: one \(String(format: "%.1f", mb)) MB text: \(String(format: "%.2f", Self.seconds(whole))) s = \(String(format: "%.1f", mb / Self.seconds(whole))) MB/s, \(mentions) mentions")

        var total = 0
        let perText = clock.measure { for t in texts { total += parser.parse(t).mentions.count } }
        let kb = Double(corpus.utf8.count) / 1_000_000
        print("bench: \(texts.count) labels one by one: \(String(format: "%.1f", kb / Self.seconds(perText))) MB/s")

        // A typical label: the real texts of 500–700 characters.
        let typical = texts.filter { (500...700).contains($0.count) }
        let rounds = 200
        let labels = clock.measure { for _ in 0..<rounds { for t in typical { _ = parser.parse(t) } } }
        let avgChars = typical.map(\.count).reduce(0, +) / max(1, typical.count)
        print("bench: \(typical.count) labels of 500–700 chars (mean \(avgChars)): \(String(format: "%.1f", Self.seconds(labels) / Double(rounds * typical.count) * 1e6)) µs per label")

        var rng = SystemRandomNumberGenerator()
        let junk = String(decoding: (0..<5_000_000).map { _ in UInt8.random(in: 0...255, using: &rng) }, as: UTF8.self)
        let junkTime = clock.measure { _ = parser.parse(junk) }
        print("bench: 5 MB random bytes: \(String(format: "%.2f", Self.seconds(junkTime))) s")
        let line = String(repeating: "E330 (((( e e E 1 1 1 INS N° £ colour: (caramel, tartrazine ", count: 85_000)
        let lineTime = clock.measure { _ = parser.parse(line) }
        print("bench: \(line.utf8.count / 1_000_000) MB single line: \(String(format: "%.2f", Self.seconds(lineTime))) s")
    }
}
