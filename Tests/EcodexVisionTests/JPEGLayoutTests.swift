import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// The JPEG marker walk that sizes a decode before libjpeg sees the file (`JPEGLayout`), and the
/// limits `ImageLoader` holds it to.
@Suite struct JPEGLayoutTests {
    func layout(_ bytes: [UInt8], stopAfterScans: Int = 1000) throws -> JPEGLayout? {
        let path = try Fixtures.temporaryFolder() + "/layout.jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try layout(at: path, stopAfterScans: stopAfterScans)
    }

    func layout(at path: String, stopAfterScans: Int = 1000) throws -> JPEGLayout? {
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        return JPEGLayout.read(fd: fd, stopAfterScans: stopAfterScans)
    }

    /// Runs ImageMagick's `convert` (libjpeg inside) on the sample label with `arguments`.
    func converted(_ arguments: [String]) throws -> String {
        let path = try Fixtures.temporaryFolder() + "/converted.jpg"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["convert", Fixtures.real("irockel_image-5.jpg")] + arguments + [path]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0)
        return path
    }

    /// SOI, a frame header (SOF2 progressive unless `baseline`) for one component of `w`×`h`.
    func head(_ w: Int, _ h: Int, baseline: Bool = false) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, baseline ? 0xC0 : 0xC2, 0, 11, 8, UInt8(h >> 8), UInt8(h & 0xFF), UInt8(w >> 8), UInt8(w & 0xFF), 1, 1, 0x11, 0]
    }

    /// A start-of-scan segment for component 1.
    let sos: [UInt8] = [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0]

    @Test func libjpegsProgressiveScriptIsCounted() throws {
        let colour = try #require(try layout(at: converted(["-interlace", "Plane", "-sampling-factor", "2x2"])))
        #expect(colour.progressive && colour.buffersWholeImage)
        #expect(colour.scans == 10, "libjpeg's colour script has 10 scans")
        #expect(colour.components == [.init(h: 2, v: 2), .init(h: 1, v: 1), .init(h: 1, v: 1)])
        let grey = try #require(try layout(at: converted(["-colorspace", "gray", "-interlace", "Plane"])))
        #expect(grey.scans == 6 && grey.components.count == 1, "\(grey)")
    }

    @Test func aBaselinePhotoIsWalkedOnlyToItsFirstScan() throws {
        let photo = try #require(try layout(at: Fixtures.real("irockel_image-5.jpg")))
        #expect(!photo.progressive && !photo.buffersWholeImage)
        #expect(photo.scans == 1 && photo.firstScanComponents == photo.components.count)
        // A baseline file whose first scan lacks a component is buffered whole by libjpeg: walked on.
        let threeComponents: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0, 64, 0, 64, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]
        let twoScans = threeComponents + sos + [0x12, 0x34] + sos + [0x56] + [0xFF, 0xD9]
        let split = try #require(try layout(twoScans))
        #expect(split.scans == 2)
    }

    @Test func entropyCodedDataIsSkippedByItsRules() throws {
        // Stuffed FF 00 (even before DA), restart markers and fill bytes are data; FF FF DA is a scan.
        let data: [UInt8] = [0x01, 0xFF, 0x00, 0xDA, 0xFF, 0xD3, 0x02, 0xFF, 0xFF, 0x00, 0xFF, 0xD7, 0xFF, 0x00]
        let file = head(64, 64) + sos + data + [0xFF, 0xFF] + sos + data + [0xFF, 0xC4, 0, 2] + sos + data + [0xFF, 0xD9]
        let walked = try #require(try layout(file))
        #expect(walked.scans == 3)
        // Without an end-of-image marker the walk ends with the file; nothing after EOI counts.
        #expect(try layout(head(64, 64) + sos + data + sos)?.scans == 2)
        #expect(try layout(head(64, 64) + sos + data + [0xFF, 0xD9] + sos + sos)?.scans == 1)
        // The walk stops one past the limit.
        #expect(try layout(head(64, 64) + Array([[UInt8]](repeating: sos + [0], count: 50).joined()), stopAfterScans: 5)?.scans == 6)
        // No frame before the scan, or not a JPEG: nothing to say.
        #expect(try layout([0xFF, 0xD8] + sos + [0xFF, 0xD9]) == nil)
        #expect(try layout(Array("not a jpeg".utf8)) == nil)
    }

    @Test func theCoefficientBufferIsSizedAsLibjpegSizesIt() {
        // 6000×4500 with 4:2:0: Y 750×564 blocks (rounded to its 2×2 sampling), Cb and Cr 375×282.
        var phone = JPEGLayout(width: 6000, height: 4500, progressive: true,
                               components: [.init(h: 2, v: 2), .init(h: 1, v: 1), .init(h: 1, v: 1)], scans: 10, firstScanComponents: 3)
        #expect(phone.coefficientBytes == (750 * 564 + 2 * 375 * 282) * 128)
        // With its output (3000×2250 at 4 bytes), a 27 MP progressive photo reads.
        #expect(phone.coefficientBytes + 3000 * 2250 * 4 <= ImageLoader.maxDecodeBytes)
        // An odd size: blocks rounded up, and Y's rounded to its sampling.
        phone.width = 4001
        phone.height = 3001
        #expect(phone.coefficientBytes == (502 * 376 + 2 * 251 * 188) * 128)
        #expect(throws: Never.self) { try ImageLoader.checkCost(of: phone, path: "p.jpg") }
        phone.scans = ImageLoader.maxJPEGScans + 1
        #expect(throws: ImageError.tooManyScans(path: "p.jpg", maxScans: ImageLoader.maxJPEGScans)) {
            try ImageLoader.checkCost(of: phone, path: "p.jpg")
        }
        // 10000×10000 with three full-size components: 600 MB of coefficients.
        var bomb = JPEGLayout(width: 10_000, height: 10_000, progressive: true,
                              components: Array(repeating: .init(h: 1, v: 1), count: 3), scans: 4, firstScanComponents: 3)
        #expect(bomb.coefficientBytes == 3 * 1250 * 1250 * 128)
        let refused = #expect(throws: ImageError.self) { try ImageLoader.checkCost(of: bomb, path: "b.jpg") }
        // 6 bytes of coefficients a pixel, and 1 of output at 1/2.
        #expect(refused == .progressiveTooLarge(width: 10_000, height: 10_000, maxPixels: ImageLoader.maxDecodeBytes / 7))
        // The same size in baseline, one interleaved scan, is decoded a row of blocks at a time.
        bomb.progressive = false
        #expect(throws: Never.self) { try ImageLoader.checkCost(of: bomb, path: "b.jpg") }
    }
}
