import Foundation
import Testing

/// Writes an Open Food Facts-like JSON Lines export of `count` products (valid, scattered
/// EAN-13 barcodes; nested fields the importer must skip) and returns its path.
func generateExport(lines count: Int, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent("generated-\(count).jsonl")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var buffer = Data()
    buffer.reserveCapacity(1 << 21)
    let texts = [
        "Sugar, glucose syrup, gelatine, acid: citric acid, colours: E102, E129, glazing agent: carnauba wax",
        "Wheat flour, sugar, palm oil, raising agents: E500, E503, salt, emulsifier: soy lecithin",
        "Carbonated water, sugar, colour: caramel E150d, acid: phosphoric acid, natural flavourings, caffeine",
        "Milk, cream, sugar, strawberries 8%, stabiliser: E412, colour: carmine",
    ]
    for i in 0..<count {
        // 12 scattered digits, then the GS1 check digit.
        let body = String(format: "%012llu", (UInt64(i) &* 2_654_435_761) % 1_000_000_000_000)
        var sum = 0
        for (k, ch) in body.reversed().enumerated() { sum += (ch.wholeNumberValue ?? 0) * (k % 2 == 0 ? 3 : 1) }
        let code = body + String((10 - sum % 10) % 10)
        let line = #"{"code":"\#(code)","product_name":"Product \#(i)","brands_tags":["brand-\#(i % 97)","x"],"#
            + #""nutriments":{"energy_100g":\#(i % 2000),"sugars_100g":\#(Double(i % 500) / 10)},"#
            + #""ingredients_text":"\#(texts[i % texts.count])","lang":"en","countries_tags":["en:france","en:germany"]}"#
            + "\n"
        buffer.append(contentsOf: line.utf8)
        if buffer.count >= 1 << 20 {
            handle.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }
    handle.write(buffer)
    return url
}

/// `ECODEX_IMPORT_BENCH=1 swift test --filter BarcodeImportBenchmark`: imports generated exports
/// of 100,000 and 1,000,000 lines with the `scan` binary (`ECODEX_BENCH_SCAN` picks another
/// build, e.g. .build/release/scan) and prints lines per second and peak memory.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_IMPORT_BENCH"] != nil))
struct BarcodeImportBenchmark {
    let scan = ScanBinary()

    @Test func importRateAndPeakMemory() throws {
        let env = ProcessInfo.processInfo.environment
        let binary = env["ECODEX_BENCH_SCAN"].map { URL(fileURLWithPath: $0) } ?? ScanBinary.executable
        var peaks: [Int: Double] = [:]
        for count in [100_000, 1_000_000] {
            let file = try generateExport(lines: count, in: scan.dataDir)
            defer { try? FileManager.default.removeItem(at: file) }
            let p = Process()
            p.executableURL = binary
            p.arguments = ["products", "import", file.path, "--format", "json"]
            var e = env
            e["ECODEX_DATA_DIR"] = scan.dataDir.path
            p.environment = e
            let out = Pipe()
            p.standardOutput = out
            let started = Date()
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            let wall = Date().timeIntervalSince(started)
            #expect(p.terminationStatus == 0)
            let r = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(r["imported"] as? Int == count)
            let rate = r["linesPerSecond"] as? Double ?? 0
            let peak = r["peakMemoryMB"] as? Double ?? 0
            let size = Double((r["bytes"] as? Int) ?? 0) / 1_048_576
            peaks[count] = peak
            print("ECODEX_IMPORT_BENCH \(binary.path): \(count) lines (\(String(format: "%.0f", size)) MB): "
                + "\(String(format: "%.2f", r["seconds"] as? Double ?? 0)) s import, \(String(format: "%.2f", wall)) s wall, "
                + "\(Int(rate)) lines/s, peak memory \(peak) MB")
        }
        // Flat memory: ten times the lines may not need noticeably more memory.
        if let small = peaks[100_000], let large = peaks[1_000_000] {
            #expect(large - small < 24, "peak memory grew from \(small) MB to \(large) MB")
        }
    }
}
