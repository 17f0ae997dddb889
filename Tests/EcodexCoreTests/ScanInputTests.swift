import Testing
@testable import EcodexCore

/// The one entry to the pipeline (`ScanPipeline.scan(_:options:)`), what `scan barcode`'s
/// argument is taken for, barcode photos and region resolution: moved out of the command line.
@Suite struct ScanInputTests {
    @Test func barcodeArgumentIsDigitsOrAPhoto() {
        #expect(ScanInput.barcode("4006381333931") == .barcodeDigits("4006381333931"))
        #expect(ScanInput.barcode("4 006381 333931") == .barcodeDigits("4 006381 333931"))
        #expect(ScanInput.barcode("400-638-133-3931") == .barcodeDigits("400-638-133-3931"))
        #expect(ScanInput.barcode("back.jpg") == .barcodePhoto(path: "back.jpg"))
        #expect(ScanInput.barcode("./4006381333931") == .barcodePhoto(path: "./4006381333931"))
    }

    @Test func everyCaseReachesItsStage() throws {
        let products = FakeProducts(["4006381333931": "Sugar, E102"])
        let p = try ScanPipeline(catalog: TestRecords.catalog, reader: FakeReader("Sugar, E330"),
                                 barcodeReader: FakeBarcodes([Barcode(symbology: "EAN-13", digits: "4006381333931")]),
                                 products: products)
        let o = ScanOptions()
        #expect(try p.scan(.image(path: "a.jpg"), options: o).additives.map(\.code.description) == ["E330"])
        #expect(try p.scan(.burst(paths: ["a.jpg", "b.jpg"]), options: o).additives.map(\.code.description) == ["E330"])
        let text = try p.scan(.text("water, E129", label: "stdin"), options: o)
        #expect(text.input == "stdin" && text.additives.map(\.code.description) == ["E129"])
        #expect(try p.scan(.code("E120"), options: o).additives.map(\.code.description) == ["E120"])
        #expect(try p.scan(.barcodeDigits("4006381333931"), options: o).additives.map(\.code.description) == ["E102"])
        let photo = try p.scan(.barcodePhoto(path: "back.jpg"), options: o)
        #expect(photo.additives.map(\.code.description) == ["E102"])
        #expect(photo.barcode?.digits == "4006381333931")
    }

    @Test func aBarcodePhotoIsLookedUpByItsCanonicalKey() throws {
        // UPC-E 01234565 stands for UPC-A 012345000065: looked up by its canonical key (13 digits), never as an EAN-8.
        let products = FakeProducts(["0012345000065": "Water, E330"])
        let p = try ScanPipeline(catalog: TestRecords.catalog, barcodeReader: FakeBarcodes([Barcode(symbology: "UPC-E", digits: "01234565")]),
                                 products: products)
        let r = try p.scan(.barcodePhoto(path: "upce.jpg"), options: ScanOptions())
        #expect(products.asked == ["0012345000065"])
        #expect(r.additives.map(\.code.description) == ["E330"])
    }

    @Test func aBarcodePhotoWithoutBarcodeIsACaptureError() throws {
        let p = try ScanPipeline(catalog: TestRecords.catalog, barcodeReader: FakeBarcodes([]), products: FakeProducts([:]))
        let e = #expect(throws: ScanError.noBarcodeInPhoto) { try p.scan(.barcodePhoto(path: "blank.jpg"), options: ScanOptions()) }
        #expect(e?.errorClass == .capture)
        let none = try ScanPipeline(catalog: TestRecords.catalog)
        #expect(throws: ScanError.barcodeReaderUnavailable) { try none.scan(.barcodePhoto(path: "blank.jpg"), options: ScanOptions()) }
    }

    @Test func regionIsTheSavedOneThenTheLocaleThenEU() {
        #expect(Region.resolve(saved: .ca, environment: ["LC_ALL": "en_GB.UTF-8"]) == .ca)
        #expect(Region.resolve(saved: nil, environment: ["LC_ALL": "en_GB.UTF-8", "LANG": "en_US.UTF-8"]) == .uk)
        #expect(Region.resolve(saved: nil, environment: ["LC_ALL": "", "LANG": "en_US.UTF-8"]) == .us)
        #expect(Region.resolve(saved: nil, environment: ["LC_ALL": "C", "LANG": "en_AU.UTF-8"]) == .au)
        #expect(Region.resolve(saved: nil, environment: ["LANG": "C"]) == .eu)
        #expect(Region.resolve(saved: nil, environment: [:]) == .eu)
        var saved = PreferencesFile()
        saved.childMode = true
        let p = saved.preferences(environment: ["LANG": "en_IN"])
        #expect(p.region == .india && p.childMode)
    }
}
