import Benchmark
import EcodexCore
import Foundation

/// The bundled base pack: the real dictionary the parser matches against.
let pack: Pack = {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/EcodexStore/Resources/base-pack.json")
    guard let data = try? Data(contentsOf: url), let pack = try? JSONDecoder().decode(Pack.self, from: data) else {
        fatalError("cannot read \(url.path): build the base pack first")
    }
    return pack
}()

/// A typical 600-character ingredient list with codes, names and class words.
let label = """
    Ingredients: sugar, glucose syrup, wheat flour, vegetable fats (palm, shea), cocoa butter, \
    skimmed milk powder, emulsifiers: soya lecithin, E476, mono- and diglycerides of fatty acids; \
    acidity regulators (330, 331), citric acid, colours: E102, E129, carmine, paprika extract, \
    caramel colour E150d, preservative: potassium sorbate, sulphur dioxide, thickener: xanthan gum, \
    guar gum, sweeteners: aspartame, acesulfame K, flavour enhancer: monosodium glutamate, \
    raising agents: sodium bicarbonate, ammonium bicarbonate, salt, flavourings. Contains a source of phenylalanine.
    """

/// The 307 real ingredient texts of the parser tests (Open Food Facts labels).
let realLabels: [String] = {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/EcodexCoreTests/Fixtures/ingredient-texts.jsonl")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { fatalError("cannot read \(url.path)") }
    return text.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["text"] as? String
    }
}()

/// The parser built once for the benchmarks that do not time building it.
let sharedParser = IngredientParser(lexicon: Lexicon(additives: pack.additives))

/// Walks a list across the samples of one benchmark.
final class Cycle: @unchecked Sendable {
    private var i = 0
    func next(_ count: Int) -> Int { defer { i += 1 }; return i % count }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(3))

    Benchmark("Parse a 600-character label", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let parser = IngredientParser(lexicon: Lexicon(additives: pack.additives))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(parser.parse(label)) }
    }

    Benchmark("Parser throughput, 1 MB of labels") { benchmark in
        let parser = IngredientParser(lexicon: Lexicon(additives: pack.additives))
        let megabyte = String(repeating: label + "\n", count: 1_000_000 / (label.utf8.count + 1))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(parser.parse(megabyte)) }
    }

    Benchmark("Parser throughput, the real labels one by one") { benchmark in
        let parser = sharedParser, labels = realLabels
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { for text in labels { blackHole(parser.parse(text)) } }
    }

    // Per-label latency on real text: the real labels of 500–700 characters, one per iteration.
    let typicalCycle = Cycle()
    Benchmark("Parse a real label of 500-700 characters", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let parser = sharedParser
        let typical = realLabels.filter { (500...700).contains($0.count) }
        let start = typicalCycle.next(typical.count)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(parser.parse(typical[(start + i) % typical.count])) }
    }

    Benchmark("Parse 1 MB of random bytes", configuration: .init(maxIterations: 20)) { benchmark in
        let parser = sharedParser
        var rng = SystemRandomNumberGenerator()
        let junk = String(decoding: (0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &rng) }, as: UTF8.self)
        benchmark.startMeasurement()
        blackHole(parser.parse(junk))
    }

    Benchmark("Parse a 1 MB adversarial single line", configuration: .init(maxIterations: 20)) { benchmark in
        let parser = sharedParser
        let line = String(repeating: "E330 (((( e e E 1 1 1 INS N° £ colour: (caramel, tartrazine ", count: 17_000)
        benchmark.startMeasurement()
        blackHole(parser.parse(line))
    }

    Benchmark("Build the parser from the full lexicon") { benchmark in
        let lexicon = Lexicon(additives: pack.additives)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(IngredientParser(lexicon: lexicon)) }
    }

    Benchmark("Map the parser from its saved image (name-index load)") { benchmark in
        let image = ParserImage.encode(IngredientParser(lexicon: Lexicon(additives: pack.additives)), stamp: "bench")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-bench-\(getpid()).index")
        try? Data(image).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(ParserImage.load(path: url.path, stamp: "bench")) }
    }

    Benchmark("Assess a 20-additive label", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let twenty = Array(pack.additives.filter { !$0.regionRules.isEmpty }.prefix(20))
        let prefs = Preferences(region: .eu, diets: [.vegan], sensitivities: [.pku], childMode: true)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for a in twenty { blackHole(RiskEngine.assess(a, preferences: prefs)) }
        }
    }
}
