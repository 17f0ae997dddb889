import Testing
@testable import EcodexCore

final class FakeBarcodes: BarcodeReader {
    let codes: [Barcode]
    init(_ codes: [Barcode]) { self.codes = codes }
    func barcodes(inImageAt path: String) throws -> [Barcode] { codes }
}

final class FakeProducts: ProductSource {
    var known: [String: String]
    private(set) var asked: [String] = []
    init(_ known: [String: String]) { self.known = known }
    func product(barcode: String) throws -> Product? {
        asked.append(barcode)
        return known[barcode].map { Product(barcode: barcode, ingredientsText: $0, source: "saved on this computer") }
    }
}

@Suite struct BarcodeFallbackTests {
    let ean = Barcode(symbology: "EAN-13", digits: "4006381333931")

    @Test func barcodeOnlyPhotoWithUnknownProductPromptsForOnlineOrTyping() throws {
        let products = FakeProducts([:])
        let p = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Best before see top"),
                                 barcodeReader: FakeBarcodes([ean]), products: products)
        let r = try p.scanImage(at: "back.jpg", options: ScanOptions())
        #expect(r.fallbackUsed)
        #expect(r.barcode == ean)
        #expect(products.asked == ["4006381333931"])
        #expect(r.warnings.contains { $0.contains("online") && $0.contains("type the ingredients") })
        #expect(!r.warnings.contains(ScanPipeline.nothingFound))
    }

    @Test func knownProductSuppliesTheIngredients() throws {
        let p = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Best before see top"),
                                 barcodeReader: FakeBarcodes([ean]), products: FakeProducts(["4006381333931": "Sugar, E102, E330"]))
        let r = try p.scanImage(at: "back.jpg", options: ScanOptions())
        #expect(r.additives.map(\.code.description) == ["E102", "E330"])
        #expect(r.warnings.contains { $0.contains("saved on this computer") })
    }

    @Test func aGoodLabelNeverLooksForABarcode() throws {
        let products = FakeProducts([:])
        let p = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("colours: E102"),
                                 barcodeReader: FakeBarcodes([ean]), products: products)
        let r = try p.scanImage(at: "label.jpg", options: ScanOptions())
        #expect(!r.fallbackUsed && r.barcode == nil && products.asked.isEmpty)
    }

    @Test func typedBarcodes() throws {
        let p = try ScanPipeline(catalog: TestRecords.catalog, products: FakeProducts(["0036000291452": "E129"]))
        #expect(try p.scanBarcode("036000291452", options: ScanOptions()).additives.map(\.code.description) == ["E129"])
        #expect(throws: ProductError.unknown(digits: "4006381333931", searchedOnline: false)) {
            try p.scanBarcode("4006381333931", options: ScanOptions())
        }
        #expect(throws: ScanError.notABarcode("123")) { try p.scanBarcode("123", options: ScanOptions()) }
    }
}
