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
    /// What the pipeline said it found in each product's ingredients.
    private(set) var assessed: [(barcode: String, codes: [ECode], region: Region)] = []
    func assessed(_ product: Product, codes: [ECode], region: Region) {
        assessed.append((product.barcode, codes, region))
    }
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
        let r = try p.scan(.image(path: "back.jpg"), options: ScanOptions())
        #expect(r.fallbackUsed)
        #expect(r.barcode == ean)
        #expect(products.asked == ["4006381333931"])
        #expect(r.warnings.contains { $0.message.contains("online") && $0.message.contains("type the ingredients") })
        #expect(!r.warnings.contains(ScanWarning.nothingFound))
    }

    @Test func knownProductSuppliesTheIngredients() throws {
        let p = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Best before see top"),
                                 barcodeReader: FakeBarcodes([ean]), products: FakeProducts(["4006381333931": "Sugar, E102, E330"]))
        let r = try p.scan(.image(path: "back.jpg"), options: ScanOptions())
        #expect(r.additives.map(\.code.description) == ["E102", "E330"])
        #expect(r.warnings.contains { $0.message.contains("saved on this computer") })
    }

    @Test func aGoodLabelNeverLooksForABarcode() throws {
        let products = FakeProducts([:])
        let p = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("colours: E102"),
                                 barcodeReader: FakeBarcodes([ean]), products: products)
        let r = try p.scan(.image(path: "label.jpg"), options: ScanOptions())
        #expect(!r.fallbackUsed && r.barcode == nil && products.asked.isEmpty)
    }

    @Test func typedBarcodes() throws {
        let p = try ScanPipeline(catalog: TestRecords.catalog, products: FakeProducts(["0036000291452": "E129"]))
        #expect(try p.scan(.barcodeDigits("036000291452"), options: ScanOptions()).additives.map(\.code.description) == ["E129"])
        #expect(throws: ProductError.unknown(digits: "4006381333931", searchedOnline: false)) {
            try p.scan(.barcodeDigits("4006381333931"), options: ScanOptions())
        }
        #expect(throws: ScanError.notABarcode("123")) { try p.scan(.barcodeDigits("123"), options: ScanOptions()) }
    }

    /// The product source learns the codes from the pipeline's own parse (to cache an online
    /// find with them): each distinct code once, in order, as the store files it.
    @Test func theProductSourceIsToldTheCodesTheParserFound() throws {
        let products = FakeProducts(["0036000291452": "Water, E129, E 330, colour: E129"])
        let p = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Best before see top"),
                                 barcodeReader: FakeBarcodes([Barcode(symbology: "UPC-A", digits: "0036000291452")]), products: products)
        _ = try p.scan(.barcodeDigits("036000291452"), options: ScanOptions(preferences: Preferences(region: .us)))
        _ = try p.scan(.image(path: "back.jpg"), options: ScanOptions())
        #expect(products.assessed.map(\.barcode) == ["0036000291452", "0036000291452"])
        #expect(products.assessed.map { $0.codes.map(\.description) } == [["E129", "E330"], ["E129", "E330"]])
        #expect(products.assessed.map(\.region) == [.us, .eu])
    }
}
