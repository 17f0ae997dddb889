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

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(3))

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
