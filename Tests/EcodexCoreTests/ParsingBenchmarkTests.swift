import Foundation
import Testing
import EcodexCore
#if canImport(Glibc)
import Glibc
#endif

/// Prints parser timings; runs only when `ECODEX_PARSER_BENCH` is set (numbers, not assertions).
@Suite("Parsing: benchmark")
struct ParsingBenchmarkTests {
    static var enabled: Bool { ProcessInfo.processInfo.environment["ECODEX_PARSER_BENCH"] != nil }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// CPU seconds of this thread: the machines are shared, so wall time overstates the parser's cost.
    static func cpuSeconds() -> Double {
        #if canImport(Glibc)
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        #else
        return Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        #endif
    }

    /// Wall and CPU seconds of `body`.
    static func measure(_ body: () -> Void) -> (wall: Double, cpu: Double) {
        let c0 = cpuSeconds()
        let w = ContinuousClock().measure(body)
        return (seconds(w), cpuSeconds() - c0)
    }

    static func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }

    @Test(.enabled(if: enabled))
    func throughput() {
        let lexicon = ParsingFixtureLexicon.shared
        var parser: IngredientParser?
        let build = Self.measure { parser = IngredientParser(lexicon: lexicon) }
        guard let parser else { return }
        print("bench: lexicon \(lexicon.entries.count) names, \(lexicon.knownCodes.count) codes; index build \(Self.f(build.wall * 1000)) ms wall, \(Self.f(build.cpu * 1000)) ms CPU")
        if ProcessInfo.processInfo.environment["ECODEX_PARSER_BENCH"] == "profile" {
            // A long steady loop over real labels, for a profiler.
            let texts = ParsingFixtureLexicon.jsonLines("ingredient-texts.jsonl").compactMap { $0["text"] as? String }
            for _ in 0..<100 { for t in texts { _ = parser.parse(t) } }
            return
        }
        if ProcessInfo.processInfo.environment["ECODEX_PARSER_BENCH"] == "profile-build" {
            for _ in 0..<30 { _ = IngredientParser(lexicon: lexicon) }
            return
        }
        if ProcessInfo.processInfo.environment["ECODEX_PARSER_BENCH"] == "profile-big" {
            let texts = ParsingFixtureLexicon.jsonLines("ingredient-texts.jsonl").compactMap { $0["text"] as? String }
            let big = String(repeating: texts.joined(separator: "\n") + "\n", count: 70)
            for _ in 0..<3 { _ = parser.parse(big) }
            return
        }

        let texts = ParsingFixtureLexicon.jsonLines("ingredient-texts.jsonl").compactMap { $0["text"] as? String }
        let corpus = texts.joined(separator: "\n")
        var big = ""
        while big.utf8.count < 10_000_000 { big += corpus; big += "\n" }
        var mentions = 0
        let whole = Self.measure { mentions = parser.parse(big).mentions.count }
        let mb = Double(big.utf8.count) / 1_000_000
        print("bench: one \(Self.f(mb)) MB text, \(mentions) mentions: \(Self.f(mb / whole.wall)) MB/s wall, \(Self.f(mb / whole.cpu)) MB/s CPU")

        let rounds = 20
        let perText = Self.measure { for _ in 0..<rounds { for t in texts { _ = parser.parse(t) } } }
        let corpusMB = Double(corpus.utf8.count * rounds) / 1_000_000
        print("bench: \(texts.count) labels one by one ×\(rounds): \(Self.f(corpusMB / perText.wall)) MB/s wall, \(Self.f(corpusMB / perText.cpu)) MB/s CPU")

        // A typical label: the real texts of 500–700 characters.
        let typical = texts.filter { (500...700).contains($0.count) }
        let labelRounds = 300
        let labels = Self.measure { for _ in 0..<labelRounds { for t in typical { _ = parser.parse(t) } } }
        let n = Double(labelRounds * typical.count)
        let avgChars = typical.map(\.count).reduce(0, +) / max(1, typical.count)
        print("bench: \(typical.count) labels of 500–700 chars (mean \(avgChars)): \(Self.f(labels.wall / n * 1e6)) µs wall, \(Self.f(labels.cpu / n * 1e6)) µs CPU per label")

        var rng = SystemRandomNumberGenerator()
        let junk = String(decoding: (0..<5_000_000).map { _ in UInt8.random(in: 0...255, using: &rng) }, as: UTF8.self)
        let junkTime = Self.measure { _ = parser.parse(junk) }
        print("bench: 5 MB random bytes: \(Self.f(junkTime.wall, 2)) s wall, \(Self.f(junkTime.cpu, 2)) s CPU")
        let line = String(repeating: "E330 (((( e e E 1 1 1 INS N° £ colour: (caramel, tartrazine ", count: 85_000)
        let lineTime = Self.measure { _ = parser.parse(line) }
        print("bench: \(line.utf8.count / 1_000_000) MB single adversarial line: \(Self.f(lineTime.wall, 2)) s wall, \(Self.f(lineTime.cpu, 2)) s CPU")
    }
}
