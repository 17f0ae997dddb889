@testable import EcodexCore
import Foundation
import Testing
@testable import EcodexStore

/// Mutated ingredient texts through the whole text path (parser, shipped store, risk
/// engine, renderers): no crash, every result renders. Seeded, seed printed
/// (`ECODEX_TEST_SEED` replays); `ECODEX_FUZZ_TEXTS=100000` for the long run (issue 16).
@Suite struct TextFuzzTests {
    static let seeds = [
        "Sugar, glucose syrup, gelatine, acid: citric acid, colours: E102, E129, glazing agent: carnauba wax",
        "Zucker, Glukosesirup, Säuerungsmittel Citronensäure, Farbstoffe: E 160a(ii), Echtes Karmin, Emulgator Sojalecithine",
        "Eau gazéifiée, sucre, colorant : caramel E150d, acidifiant : acide phosphorique, arômes naturels, caféine",
        "INGREDIENTS: WATER, HIGH FRUCTOSE CORN SYRUP, FD&C YELLOW NO. 5, SODIUM BENZOATE (PRESERVATIVE), INS 211",
    ]
    static let noise: [String] = ["E", "(", ")", ",", ":", "ii", "\u{301}", "\u{0}", "\u{FEFF}", "℮", "%", "E1", "\n", "  ", "É", "ß",
                                  "İ", "🍬", "\u{202E}", String(repeating: "(", count: 200), String(repeating: "E1", count: 300)]

    static func mutate(_ text: String, _ rng: inout SplitMix64) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
            let at = scalars.isEmpty ? 0 : Int.random(in: 0..<scalars.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: if !scalars.isEmpty { scalars.remove(at: at) }
            case 1: scalars.insert(contentsOf: noise.randomElement(using: &rng)!.unicodeScalars, at: at)
            case 2: if !scalars.isEmpty { scalars[at] = Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng)) }
            case 3: scalars += scalars.prefix(Int.random(in: 0...min(80, scalars.count), using: &rng))
            default: if at > 0 { scalars.removeSubrange(at..<scalars.count) }
            }
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    @Test func mutatedTextsNeverCrashAndAlwaysRender() throws {
        let count = ProcessInfo.processInfo.environment["ECODEX_FUZZ_TEXTS"].flatMap(Int.init) ?? 500
        var rng = SplitMix64(seed: SplitMix64.seed("text fuzz"))
        let scratch = try Fixtures.Scratch()
        let pipeline = try ScanPipeline(catalog: try AdditiveStore(location: scratch.location))
        for i in 0..<count {
            let text = Self.mutate(Self.seeds[i % Self.seeds.count], &rng)
            do {
                let report = try pipeline.scan(.text(text), options: ScanOptions())
                #expect(!JSONRenderer.render(report).isEmpty)
                #expect(!TextRenderer().render(report).isEmpty)
                #expect(!HTMLRenderer.render([report]).isEmpty)
            } catch let e as any ClassifiedError {
                // Only a parse_error (empty or over-long text) may stop a typed text.
                #expect(e.errorClass == .parse, "\(e) for \(text.debugDescription)")
            }
        }
    }
}
