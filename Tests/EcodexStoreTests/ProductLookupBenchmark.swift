import EcodexCore
import Foundation
import Testing
@testable import EcodexStore

/// Barcode lookup speed through the product chain (cache, then imported list).
@Suite struct ProductLookupBenchmark {
    /// Valid scattered EAN-13 barcodes.
    static func barcode(_ i: Int) -> String {
        let body = String(format: "%012llu", (UInt64(i) &* 2_654_435_761) % 1_000_000_000_000)
        var sum = 0
        for (k, ch) in body.reversed().enumerated() { sum += (ch.wholeNumberValue ?? 0) * (k % 2 == 0 ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    static func microseconds(_ n: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for i in 0..<n { try body(i) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / Double(n)
    }

    /// Always on, small: a cached barcode answers well under 1 ms even in a debug build.
    @Test func cachedLookupIsUnderAMillisecond() throws {
        let scratch = try Fixtures.Scratch()
        let cache = try UserStore(location: scratch.location)
        for i in 0..<100 {
            // Cached under the canonical key, as the product chain caches what it finds online.
            let key = try #require(GTIN(Self.barcode(i))).key
            try cache.cacheProduct(CachedProduct(barcode: key, ingredientsText: "Sugar, E102", additivesFound: [], region: .eu))
        }
        let chain = ProductSourceChain(local: [ProductCacheLookup(location: scratch.location), ProductDataset(location: scratch.location)])
        var found = 0
        let us = try Self.microseconds(2_000) { i in if try chain.product(barcode: Self.barcode(i % 100)) != nil { found += 1 } }
        #expect(found == 2_000)
        #expect(us < 1_000, "\(us) µs per lookup")
    }

    /// `ECODEX_IMPORT_BENCH=1`: 1,000,000 imported products and 100,000 cached ones; prints µs per lookup.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_IMPORT_BENCH"] != nil))
    func lookupsInAMillionProducts() throws {
        let scratch = try Fixtures.Scratch()
        let file = scratch.url.appendingPathComponent("million.jsonl")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        var buffer = Data()
        for i in 0..<1_000_000 {
            buffer.append(contentsOf: #"{"code":"\#(Self.barcode(i))","ingredients_text":"Sugar, colours: E102, E129, acid: E330"}"#.utf8)
            buffer.append(0x0A)
            if buffer.count > 1 << 20 { handle.write(buffer); buffer.removeAll(keepingCapacity: true) }
        }
        handle.write(buffer)
        try handle.close()
        let summary = try ProductImporter(location: scratch.location).importProducts(from: file.path)
        #expect(summary.products == 1_000_000)
        let cache = try UserStore(location: scratch.location)
        // 100,000 cached products in one transaction (cacheProduct commits one by one).
        let db = try Connection(path: scratch.location.userPath.path, mode: .readWrite)
        try db.transaction {
            let insert = try db.prepare("""
                INSERT INTO product_cache (barcode, ingredients_text, additives_found, timestamp, region) VALUES (?, ?, ?, ?, ?)
                """)
            for i in 0..<100_000 {
                try insert.run([.text(Self.barcode(2_000_000 + i)), .text("Sugar, E102"), .text("E102"),
                                .text("2026-11-21T12:00:00.000Z"), .text("EU")])
            }
        }
        db.close()
        let dataset = ProductDataset(location: scratch.location)
        let chain = ProductSourceChain(local: [ProductCacheLookup(location: scratch.location), dataset])
        let n = 100_000
        let cacheHit = try Self.microseconds(n) { i in _ = try chain.product(barcode: Self.barcode(2_000_000 + (i * 7919) % 100_000)) }
        let listHit = try Self.microseconds(n) { i in _ = try chain.product(barcode: Self.barcode((i * 104_729) % 1_000_000)) }
        let miss = try Self.microseconds(n) { i in _ = try chain.product(barcode: Self.barcode(5_000_000 + i)) }
        let direct = try Self.microseconds(n) { i in _ = try cache.cachedProduct(barcode: Self.barcode(2_000_000 + (i * 7919) % 100_000)) }
        print("ECODEX_IMPORT_BENCH lookup (µs): cache hit via chain \(String(format: "%.1f", cacheHit)), "
            + "imported-list hit via chain \(String(format: "%.1f", listHit)), miss in both \(String(format: "%.1f", miss)), "
            + "UserStore.cachedProduct \(String(format: "%.1f", direct)); import \(Int(summary.linesPerSecond)) lines/s in-process")
        #expect(cacheHit < 1_000 && listHit < 1_000 && miss < 1_000)
    }
}
