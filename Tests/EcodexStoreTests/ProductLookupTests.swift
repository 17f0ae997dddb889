import EcodexCore
import Foundation
import Testing
@testable import EcodexStore

/// Barcode lookup through the product chain (cache, then imported list). Lookups in a
/// million imported products are timed in Benchmarks/ (StoreBenchmarks).
@Suite struct ProductLookupTests {
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
}
