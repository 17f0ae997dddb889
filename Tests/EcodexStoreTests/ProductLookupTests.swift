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

    /// Every cached barcode is found through the chain (how fast is measured in Benchmarks/).
    @Test func cachedBarcodesAreFoundThroughTheChain() throws {
        let scratch = try Fixtures.Scratch()
        let cache = try UserStore(location: scratch.location)
        for i in 0..<100 {
            // Cached under the canonical key, as the product chain caches what it finds online.
            let key = try #require(GTIN(Self.barcode(i))).key
            try cache.cacheProduct(CachedProduct(barcode: key, ingredientsText: "Sugar, E102", additivesFound: [], region: .eu))
        }
        let chain = ProductSourceChain(local: [ProductCacheLookup(location: scratch.location), ProductDataset(location: scratch.location)])
        var found = 0
        for i in 0..<200 where try chain.product(barcode: Self.barcode(i % 100)) != nil { found += 1 }
        #expect(found == 200)
        #expect(try chain.product(barcode: Self.barcode(100)) == nil, "a barcode never cached is not found")
    }
}
