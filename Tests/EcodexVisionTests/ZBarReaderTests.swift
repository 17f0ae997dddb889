import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Barcodes drawn by `zint` at test time (the project's setup installs it),
/// decoded clean, turned and inside a larger photo-sized canvas.
@Suite struct ZBarReaderTests {
    /// zint symbology number, data typed (zint adds the check digit), expected result.
    static let cases: [(zint: Int, data: String, expected: Barcode)] = [
        (13, "400638133393", Barcode(symbology: "EAN-13", digits: "4006381333931")),
        (13, "9638507", Barcode(symbology: "EAN-8", digits: "96385074")),
        (34, "03600029145", Barcode(symbology: "UPC-A", digits: "036000291452")),
        (37, "0425261", Barcode(symbology: "UPC-E", digits: "04252614")),
    ]

    let reader = ZBarReader()

    /// Draws a barcode with zint into `folder` and returns the PNG path.
    func draw(_ zint: Int, _ data: String, in folder: String,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        guard let tool = ["/usr/bin/zint", "/usr/local/bin/zint"].first(where: FileManager.default.isExecutableFile) else {
            Issue.record("zint is not installed; run the project setup (apt-get install zint) to draw test barcodes.",
                         sourceLocation: sourceLocation)
            throw CancellationError()
        }
        let path = folder + "/code-\(zint)-\(data).png"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        // Module width 2 px, no text under the bars: only the bars should decode.
        process.arguments = ["-b", String(zint), "-d", data, "--scale=2", "--notext", "-o", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "zint failed for \(data)", sourceLocation: sourceLocation)
        return path
    }

    @Test func decodesCleanCodesOfEverySymbology() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for c in Self.cases {
            let found = try reader.barcodes(inImageAt: draw(c.zint, c.data, in: folder))
            #expect(found == [c.expected], "zint -b \(c.zint) -d \(c.data)")
        }
    }

    @Test(arguments: [12.0, -25.0, 40.0, 90.0])
    func decodesTurnedCodes(degrees: Double) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for c in Self.cases where c.expected.symbology == "EAN-13" || c.expected.symbology == "UPC-E" {
            let image = try #require(PixImage.read(try draw(c.zint, c.data, in: folder)))
            let path = folder + "/turned.png"
            try Preprocessor.rotate(image.gray(), degrees: degrees).writePNG(to: path)
            #expect(try reader.barcodes(inImageAt: path) == [c.expected], "\(c.data) turned \(degrees)°")
        }
    }

    @Test func decodesACodeInsideALargerPhoto() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let c = Self.cases[0]
        let code = try #require(PixImage.read(try draw(c.zint, c.data, in: folder)))
        // A label photo beside the code, as on a real pack.
        let label = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg"))).gray()
        let canvas = try label.scaled(3).placedOnCanvas(width: 1600, height: 1200, x: 40, y: 60)
        try canvas.paste(code, x: 1000, y: 850)
        let path = folder + "/pack.png"
        try canvas.writePNG(to: path)
        #expect(try reader.barcodes(inImageAt: path) == [c.expected])
    }

    @Test func findsNothingOnALabelWithoutBarcode() throws {
        #expect(try reader.barcodes(inImageAt: Fixtures.real("irockel_image-5.jpg")).isEmpty)
    }

    @Test func rejectsAWrongCheckDigit() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // zint refuses to draw a wrong check digit, so the bars are drawn here.
        // The correct code must decode, proving the drawing is right…
        let good = folder + "/good.png"
        try EAN13Drawing.image("4006381333931").writePNG(to: good)
        #expect(try reader.barcodes(inImageAt: good) == [Barcode(symbology: "EAN-13", digits: "4006381333931")])
        // …and the same code with its last digit changed must not be reported.
        let bad = folder + "/bad.png"
        try EAN13Drawing.image("4006381333932").writePNG(to: bad)
        #expect(try reader.barcodes(inImageAt: bad).isEmpty)
    }

    @Test(arguments: [
        ("EAN-13", "4006381333931", true), ("EAN-13", "4006381333932", false),
        ("EAN-8", "96385074", true), ("EAN-8", "96385075", false),
        ("UPC-A", "036000291452", true), ("UPC-A", "036000291453", false),
        ("UPC-E", "04252614", true), ("UPC-E", "04252615", false),
        ("EAN-13", "40063813339", false), ("QR", "4006381333931", false),
    ])
    func checkDigits(symbology: String, digits: String, valid: Bool) {
        #expect(ZBarReader.checkDigitIsValid(Barcode(symbology: symbology, digits: digits)) == valid)
    }
}

/// Draws EAN-13 bars from the published encoding tables, with no check-digit
/// logic, so a test can make a code whose check digit is wrong.
enum EAN13Drawing {
    static let left = ["0001101", "0011001", "0010011", "0111101", "0100011",
                       "0110001", "0101111", "0111011", "0110111", "0001011"]
    /// Which of the six left digits use the even-parity (G) set, chosen by the first digit.
    static let parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG",
                         "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]

    static func modules(_ code: String) -> String {
        let d = code.compactMap { $0.wholeNumberValue }
        precondition(d.count == 13)
        let right = left.map { String($0.map { $0 == "0" ? "1" : "0" }) }
        let even = right.map { String($0.reversed()) }
        var bits = "101"
        for (i, p) in parity[d[0]].enumerated() { bits += p == "L" ? left[d[i + 1]] : even[d[i + 1]] }
        bits += "01010"
        for i in 7...12 { bits += right[d[i]] }
        return bits + "101"
    }

    static func image(_ code: String, module: Int = 3, height: Int = 150) throws -> PixImage {
        let bits = Array(modules(code))
        let quiet = 12 * module
        let width = bits.count * module + 2 * quiet
        var row = [UInt8](repeating: 255, count: width)
        for (i, b) in bits.enumerated() where b == "1" {
            for k in 0..<module { row[quiet + i * module + k] = 0 }
        }
        let margin = 20
        var bytes = [UInt8](repeating: 255, count: width * margin)
        for _ in 0..<height { bytes += row }
        bytes += [UInt8](repeating: 255, count: width * margin)
        return try PixImage.gray(bytes, width: width, height: height + 2 * margin)
    }
}
