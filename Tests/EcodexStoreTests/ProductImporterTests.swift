import EcodexCore
import Foundation
import Testing
@testable import EcodexStore

/// `scan products import`: OFF exports in JSON Lines, tab-separated and comma-separated CSV.
@Suite struct ProductImporterTests {
    func write(_ text: String, _ name: String, in scratch: Fixtures.Scratch) throws -> String {
        let url = scratch.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func lookup(_ barcode: String, in scratch: Fixtures.Scratch) throws -> String? {
        try ProductDataset(location: scratch.location).product(barcode: barcode)?.ingredientsText
    }

    @Test func jsonLinesKeepOnlyBarcodeAndIngredients() throws {
        let scratch = try Fixtures.Scratch()
        let file = try write("""
            {"code":"4006381333931","product_name":"Candy","ingredients_text":"Sugar, colours: E102, E129","nutriments":{"a":[1,2,{"b":"x}]"}]},"brands_tags":["a","b"]}
            {"ingredients_text":"", "code": "036000291452", "ingredients_text_en":"Water, \\"E330\\", caf\\u00e9 \\ud83d\\ude00 E211\\n", "x": null}
            {"code":"123","ingredients_text":"too short a code"}
            {"code":"4006381333932","ingredients_text":"wrong check digit"}
            {"code":"5901234123457"}
            {"code":"00000096385074","ingredients_text_fr":"sucre, E330"}
            {"code":4000417025005,"ingredients_text":"numeric code"}
            {broken

            """, "export.jsonl", in: scratch)
        let s = try ProductImporter(location: scratch.location).importProducts(from: file)
        #expect(s.format == "jsonl")
        #expect(s.lines == 8)
        #expect(s.imported == 4)
        #expect(s.skippedBarcode == 2)
        #expect(s.skippedIngredients == 1)
        #expect(s.skippedUnreadable == 1)
        #expect(s.products == 4)
        #expect(try lookup("4006381333931", in: scratch) == "Sugar, colours: E102, E129")
        // UPC-A is kept under its EAN-13 form, escapes are resolved, the text trimmed.
        #expect(try lookup("0036000291452", in: scratch) == "Water, \"E330\", café 😀 E211")
        // A GTIN-14 loses its leading 0; a 13-digit 00000… code is an EAN-8.
        #expect(try lookup("96385074", in: scratch) == "sucre, E330")
        #expect(try lookup("4000417025005", in: scratch) == "numeric code")
        let info = try #require(try ProductDataset(location: scratch.location).info())
        #expect(info.products == 4 && info.sourceName == "export.jsonl" && info.format == "jsonl")
    }

    @Test func offTabSeparatedExport() throws {
        let scratch = try Fixtures.Scratch()
        let file = try write(
            "code\turl\tproduct_name\tingredients_text\tingredients_text_en\tbrands\r\n"
                + "4006381333931\thttp://x\tCandy\tSugar, E102\t\tAcme\r\n"
                + "0036000291452\thttp://y\t\"Cola\" \"classic\"\t\tWater, E150d\t\r\n"
                + "5901234123457\thttp://z\tNothing\t\t\t\r\n"
                + "short\n"
                + "96385074\thttp://w\tLast, no newline\t\"Sugar, \"\"E129\"\"\"",
            "en.openfoodfacts.org.products.csv", in: scratch)
        let s = try ProductImporter(location: scratch.location).importProducts(from: file)
        #expect(s.format == "tsv")
        #expect(s.lines == 5 && s.imported == 3 && s.skippedIngredients == 1 && s.skippedBarcode == 1)
        #expect(try lookup("4006381333931", in: scratch) == "Sugar, E102")
        #expect(try lookup("0036000291452", in: scratch) == "Water, E150d")
        #expect(try lookup("96385074", in: scratch) == "Sugar, \"E129\"")
    }

    @Test func commaSeparatedWithQuotes() throws {
        let scratch = try Fixtures.Scratch()
        let file = try write("""
            "code","product_name","ingredients_text"
            "4006381333931","Candy, red","Sugar, ""colour"": E129, E102"
            4000417025005,Plain,"Water"

            """, "products.csv", in: scratch)
        let s = try ProductImporter(location: scratch.location).importProducts(from: file)
        #expect(s.format == "csv" && s.imported == 2)
        #expect(try lookup("4006381333931", in: scratch) == "Sugar, \"colour\": E129, E102")
        #expect(try lookup("4000417025005", in: scratch) == "Water")
    }

    @Test func theLastLineForABarcodeWins() throws {
        let scratch = try Fixtures.Scratch()
        let file = try write("""
            {"code":"4006381333931","ingredients_text":"first"}
            {"code":"4000417025005","ingredients_text":"other"}
            {"code":"4006381333931","ingredients_text":"second"}
            {"code":"4006381333931","ingredients_text":"third"}
            """, "dupes.jsonl", in: scratch)
        let s = try ProductImporter(location: scratch.location).importProducts(from: file)
        #expect(s.imported == 4 && s.products == 2)
        #expect(try lookup("4006381333931", in: scratch) == "third")
    }

    @Test func replaceSwapsTheListAndAddMerges() throws {
        let scratch = try Fixtures.Scratch()
        let importer = ProductImporter(location: scratch.location)
        _ = try importer.importProducts(from: write(#"{"code":"4006381333931","ingredients_text":"old"}"#, "a.jsonl", in: scratch))
        _ = try importer.importProducts(from: write(#"{"code":"4000417025005","ingredients_text":"new"}"#, "b.jsonl", in: scratch))
        #expect(try lookup("4006381333931", in: scratch) == nil)
        #expect(try lookup("4000417025005", in: scratch) == "new")
        let s = try importer.importProducts(
            from: write(#"{"code":"4006381333931","ingredients_text":"added"}"#, "c.jsonl", in: scratch), mode: .add)
        #expect(s.products == 2)
        #expect(try lookup("4006381333931", in: scratch) == "added")
        #expect(try lookup("4000417025005", in: scratch) == "new")
    }

    @Test func aFailedImportLeavesTheOldListAlone() throws {
        let scratch = try Fixtures.Scratch()
        let importer = ProductImporter(location: scratch.location)
        _ = try importer.importProducts(from: write(#"{"code":"4006381333931","ingredients_text":"kept"}"#, "a.jsonl", in: scratch))
        #expect(throws: ImportError.notAnExport) {
            try importer.importProducts(from: write("name\tbrand\nx\ty\n", "not-off.tsv", in: scratch))
        }
        #expect(throws: ImportError.empty) { try importer.importProducts(from: write("", "empty.jsonl", in: scratch)) }
        #expect(throws: InputFileError.missing(path: scratch.url.path + "/missing.jsonl", role: .productList)) {
            try importer.importProducts(from: scratch.url.path + "/missing.jsonl")
        }
        let gz = scratch.url.appendingPathComponent("x.jsonl.gz")
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x00]).write(to: gz)
        let e = #expect(throws: ImportError.compressed) { try importer.importProducts(from: gz.path) }
        #expect(e?.errorClass == .parse)
        #expect(try lookup("4006381333931", in: scratch) == "kept")
        #expect(!FileManager.default.fileExists(atPath: scratch.location.productsPath.path + ".importing"))
    }

    @Test func aLineLongerThanTheLimitIsSkippedWithFlatMemory() throws {
        let scratch = try Fixtures.Scratch()
        let url = scratch.url.appendingPathComponent("long.jsonl")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        handle.write(Data(#"{"code":"4006381333931","ingredients_text":"first"}"#.utf8 + [0x0A]))
        handle.write(Data(#"{"code":"4000417025005","ingredients_text":""#.utf8))
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<(ProductImporter.maxLineBytes >> 20) + 2 { handle.write(chunk) }
        handle.write(Data(#""}"#.utf8 + [0x0A]))
        handle.write(Data(#"{"code":"96385074","ingredients_text":"last"}"#.utf8))
        try handle.close()
        let s = try ProductImporter(location: scratch.location).importProducts(from: url.path)
        #expect(s.lines == 3 && s.imported == 2 && s.skippedUnreadable == 1)
        #expect(try lookup("96385074", in: scratch) == "last")
    }

    @Test func lookingUpWithoutAnImportCreatesNothing() throws {
        let scratch = try Fixtures.Scratch()
        let dataset = ProductDataset(location: scratch.location)
        #expect(try dataset.product(barcode: "4006381333931") == nil)
        #expect(try dataset.info() == nil)
        #expect(!FileManager.default.fileExists(atPath: scratch.location.productsPath.path))
    }

    @Test func aDamagedListIsALookupErrorThatSaysWhatToDo() throws {
        let scratch = try Fixtures.Scratch()
        try FileManager.default.createDirectory(at: scratch.location.directory, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: scratch.location.productsPath)
        let e = #expect(throws: ProductListError.self) { try ProductDataset(location: scratch.location).product(barcode: "4006381333931") }
        // The library says what happened, never the command: the command line words it.
        #expect(e?.errorClass == .lookup && caseName(e) == "damaged" && e?.description.contains("scan ") == false)
    }
}
