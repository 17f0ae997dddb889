import Benchmark
import EcodexCore
import EcodexStore
import Foundation

// Everything here works in one temporary data folder, made on first use and removed at
// the end of the run. What each benchmark needs is built before `startMeasurement()`.

let scratch: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-store-bench-\(getpid())")
    try? FileManager.default.removeItem(at: url)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// The pack bundled with the program, written where the store and the installer read it.
let basePack: (pack: Pack, url: URL) = {
    guard let bundled = AdditiveStore.bundledBasePackURL, var pack = try? Pack.read(from: bundled) else {
        fatalError("no bundled base pack: build the base pack first")
    }
    // The delta benchmarks install 1.0.1 over it.
    pack.version = "1.0.0"
    let url = scratch.appendingPathComponent("base-pack.json")
    try! pack.write(to: url)
    return (pack, url)
}()

/// A store built from the bundled pack in its own data folder.
let storeLocation: StoreLocation = {
    let location = StoreLocation(directory: scratch.appendingPathComponent("store"))
    try! AdditiveStore.rebuild(location: location, basePackURL: basePack.url)
    return location
}()

let openStore: AdditiveStore = try! AdditiveStore(location: storeLocation, basePackURL: basePack.url)

/// Each name with two letters in its middle swapped: what the fuzzy search is for.
let misspelled: [String] = basePack.pack.additives.filter { $0.canonicalName.count >= 6 }.map { a in
    var c = Array(a.canonicalName)
    c.swapAt(c.count / 2, c.count / 2 + 1)
    return String(c)
}

/// Walks a list across the samples of one benchmark.
final class Cycle: @unchecked Sendable {
    private var i = 0
    func next(_ count: Int) -> Int { defer { i += 1 }; return i % count }
}

// MARK: - Packs

let alice = PublisherKey(owner: "alice"), bob = PublisherKey(owner: "bob")
let trust = TrustedKeys(requiredSignatures: 2, keys: [alice.trustEntry, bob.trustEntry])

func signed(_ file: PackFile) throws -> [UInt8] {
    var out = file
    for key in [alice, bob] { out.manifest = try key.sign(out.manifest) }
    return out.encoded
}

/// The bundled base pack as a signed full pack, and two 50-record deltas to 1.0.1.
let packBytes: (full: [UInt8], changed: [UInt8], mixed: [UInt8]) = {
    let real = basePack.pack
    // 50 records changed.
    var next = real
    next.version = "1.0.1"
    for i in stride(from: 0, to: 500, by: 10) { next.additives[i].labelFrequency += 1 }
    // 30 changed (10 of those gain a name), 10 added, 10 removed: name-index updates and the parent re-scan too.
    var mixed = real
    mixed.version = "1.0.1"
    let declaredParents = Set(real.additives.compactMap(\.parent))
    let removed = Set(real.additives.filter { !declaredParents.contains($0.code) }.suffix(10).map(\.code))
    mixed.additives.removeAll { removed.contains($0.code) }
    for i in stride(from: 0, to: 300, by: 10) {
        mixed.additives[i].labelFrequency += 1
        if i % 30 == 0 { mixed.additives[i].names["en", default: []].append("Bench name \(i)") }
    }
    for k in 0..<10 {
        var added = real.additives[k * 7]
        added.code = ECode("E\(1990 + k)")!
        added.parent = nil
        mixed.additives.append(added)
    }
    return (try! signed(PackBuilder.full(real)), try! signed(PackBuilder.delta(from: real, to: next)),
            try! signed(PackBuilder.delta(from: real, to: mixed)))
}()

/// A data folder holding the store built from the base pack, and a pristine copy of its
/// file to put back before each apply.
let installFolder: (location: StoreLocation, pristine: URL) = {
    let location = StoreLocation(directory: scratch.appendingPathComponent("install"))
    _ = try! AdditiveStore(location: location, basePackURL: basePack.url)
    let pristine = scratch.appendingPathComponent("pristine.sqlite")
    try! FileManager.default.copyItem(at: location.additivesPath, to: pristine)
    return (location, pristine)
}()

func applyOnFreshStore(_ bytes: [UInt8], _ benchmark: Benchmark) throws {
    let (location, pristine) = installFolder
    let installer = PackInstaller(location: location, trust: trust, basePackURL: basePack.url)
    let fm = FileManager.default
    try? fm.removeItem(at: location.additivesPath)
    try? fm.removeItem(at: installer.previousPath)
    try fm.copyItem(at: pristine, to: location.additivesPath)
    benchmark.startMeasurement()
    let outcome = try installer.apply(bytes, source: "bench")
    benchmark.stopMeasurement()
    precondition(outcome.to.packVersion == "1.0.1")
}

// MARK: - Products

/// A valid, scattered EAN-13 barcode.
func barcode(_ i: Int) -> String {
    let body = String(format: "%012llu", (UInt64(i) &* 2_654_435_761) % 1_000_000_000_000)
    var sum = 0
    for (k, ch) in body.reversed().enumerated() { sum += (ch.wholeNumberValue ?? 0) * (k % 2 == 0 ? 3 : 1) }
    return body + String((10 - sum % 10) % 10)
}

/// Writes an Open Food Facts-like JSON Lines export of `count` products (nested fields
/// the importer must skip).
func writeExport(lines count: Int, to url: URL) throws {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let texts = [
        "Sugar, glucose syrup, gelatine, acid: citric acid, colours: E102, E129, glazing agent: carnauba wax",
        "Wheat flour, sugar, palm oil, raising agents: E500, E503, salt, emulsifier: soy lecithin",
        "Carbonated water, sugar, colour: caramel E150d, acid: phosphoric acid, natural flavourings, caffeine",
        "Milk, cream, sugar, strawberries 8%, stabiliser: E412, colour: carmine",
    ]
    var buffer = Data()
    for i in 0..<count {
        let line = #"{"code":"\#(barcode(i))","product_name":"Product \#(i)","brands_tags":["brand-\#(i % 97)","x"],"#
            + #""nutriments":{"energy_100g":\#(i % 2000),"sugars_100g":\#(Double(i % 500) / 10)},"#
            + #""ingredients_text":"\#(texts[i % texts.count])","lang":"en","countries_tags":["en:france","en:germany"]}"#
            + "\n"
        buffer.append(contentsOf: line.utf8)
        if buffer.count >= 1 << 20 { handle.write(buffer); buffer.removeAll(keepingCapacity: true) }
    }
    handle.write(buffer)
}

/// A data folder with 1,000,000 imported products and 1,000 cached ones, and the
/// product chain `scan` builds over them (cache first, then the imported list).
nonisolated(unsafe) let productChain: ProductSourceChain = {
    let location = StoreLocation(directory: scratch.appendingPathComponent("products"))
    try! FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
    let export = scratch.appendingPathComponent("million.jsonl")
    try! writeExport(lines: 1_000_000, to: export)
    let summary = try! ProductImporter(location: location).importProducts(from: export.path)
    precondition(summary.products == 1_000_000)
    try? FileManager.default.removeItem(at: export)
    let cache = try! UserStore(location: location)
    for i in 0..<1_000 {
        // Under the canonical key, as the chain caches what it finds online.
        try! cache.cacheProduct(CachedProduct(barcode: GTIN(barcode(2_000_000 + i))!.key, ingredientsText: "Sugar, E102",
                                              additivesFound: [], region: .eu))
    }
    let chain = ProductSourceChain(local: [ProductCacheLookup(location: location), ProductDataset(location: location)])
    precondition((try? chain.product(barcode: barcode(2_000_007))) != nil, "a cached barcode is not found")
    precondition((try? chain.product(barcode: barcode(104_729))) != nil, "an imported barcode is not found")
    precondition((try? chain.product(barcode: barcode(5_000_000))) == nil, "an unknown barcode is found")
    return chain
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(3))
    Benchmark.teardown = { try? FileManager.default.removeItem(at: scratch) }

    // MARK: Store lookups

    Benchmark("Store: open and first code lookup") { benchmark in
        let location = storeLocation, code = basePack.pack.additives[0].code
        benchmark.startMeasurement()
        let store = try AdditiveStore(location: location)
        blackHole(try store.additive(code: code))
    }

    Benchmark("Store: first lookup of all codes (read and decode), per sample") { benchmark in
        let location = storeLocation, codes = basePack.pack.additives.map(\.code)
        let store = try AdditiveStore(location: location)
        benchmark.startMeasurement()
        for code in codes { blackHole(try store.additive(code: code)) }
    }

    Benchmark("Store: repeated code lookup (decoded)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let store = openStore, codes = basePack.pack.additives.map(\.code)
        for code in codes { _ = try store.additive(code: code) }
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(try store.additive(code: codes[i % codes.count])) }
    }

    Benchmark("Store: exact name lookup", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let store = openStore, names = basePack.pack.additives.map(\.canonicalName)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(try store.lookup(name: names[i % names.count])) }
    }

    let fuzzyCycle = Cycle()
    Benchmark("Store: fuzzy top-5 search, a misspelled name") { benchmark in
        let store = openStore, names = misspelled
        let name = names[fuzzyCycle.next(names.count)]
        benchmark.startMeasurement()
        blackHole(try store.search(name, limit: 5))
    }

    Benchmark("Store: lexicon (all names)") { benchmark in
        let store = openStore
        benchmark.startMeasurement()
        blackHole(try store.lexicon())
    }

    Benchmark("Store: rebuild from the base pack", configuration: .init(maxIterations: 20)) { benchmark in
        let location = StoreLocation(directory: scratch.appendingPathComponent("rebuild"))
        let url = basePack.url
        benchmark.startMeasurement()
        try AdditiveStore.rebuild(location: location, basePackURL: url)
    }

    // MARK: Packs

    Benchmark("Pack: verify the full base pack") { benchmark in
        let bytes = packBytes.full
        benchmark.startMeasurement()
        blackHole(try PackVerifier.verify(bytes, trust: trust))
    }

    Benchmark("Pack: form, SHA-256 and signatures only") { benchmark in
        let bytes = packBytes.full
        benchmark.startMeasurement()
        let file = try PackFile(bytes: bytes)
        blackHole(PackFile.checksum(file.payloadBytes))
        blackHole(try PackVerifier.checkSignatures(file.manifest, trust: trust))
    }

    Benchmark("Pack: decode the records only") { benchmark in
        let payload = try PackFile(bytes: packBytes.full).payloadBytes
        benchmark.startMeasurement()
        blackHole(try PackPayload.decode(payload))
    }

    Benchmark("Pack: parse the records' JSON only") { benchmark in
        let payload = try PackFile(bytes: packBytes.full).payloadBytes
        benchmark.startMeasurement()
        blackHole(try JSONValue.parse(payload))
    }

    Benchmark("Pack: content rules only") { benchmark in
        let pack = basePack.pack
        benchmark.startMeasurement()
        try PackVerifier.checkContent(pack)
    }

    Benchmark("Pack: apply a 50-record delta", configuration: .init(maxIterations: 30)) { benchmark in
        try applyOnFreshStore(packBytes.changed, benchmark)
    }

    Benchmark("Pack: apply a mixed 50-record delta", configuration: .init(maxIterations: 30)) { benchmark in
        try applyOnFreshStore(packBytes.mixed, benchmark)
    }

    // MARK: Products

    let productCycle = Cycle()
    Benchmark("Products: cached barcode via the chain", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let chain = productChain, base = productCycle.next(1_000) * 1_000
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(try chain.product(barcode: barcode(2_000_000 + (base + i * 7) % 1_000))) }
    }

    Benchmark("Products: barcode in 1,000,000 imported, via the chain", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let chain = productChain, base = productCycle.next(1_000) * 1_000
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(try chain.product(barcode: barcode(((base + i) * 104_729) % 1_000_000))) }
    }

    Benchmark("Products: unknown barcode (miss in both)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let chain = productChain, base = productCycle.next(1_000) * 1_000
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(try chain.product(barcode: barcode(5_000_000 + base + i))) }
    }

    Benchmark("Products: import a 100,000-line export", configuration: .init(maxIterations: 10)) { benchmark in
        let location = StoreLocation(directory: scratch.appendingPathComponent("import"))
        try FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
        let export = scratch.appendingPathComponent("hundred-thousand.jsonl")
        if !FileManager.default.fileExists(atPath: export.path) { try writeExport(lines: 100_000, to: export) }
        benchmark.startMeasurement()
        let summary = try ProductImporter(location: location).importProducts(from: export.path)
        benchmark.stopMeasurement()
        precondition(summary.products == 100_000)
    }
}
