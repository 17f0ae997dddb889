import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Bad inputs must fail fast with a capture error a shopper can act on, for
/// both readers, and must never reach a decoder that could allocate or crash.
/// Serialized: `heifIsDecodedOnceForTheBarcodeReader` counts this process's HEIF decodes, and
/// only this suite decodes HEIF photos.
@Suite(.serialized) struct ImageLoaderTests {
    /// Writes `bytes` to a fresh temporary file named `name`.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = try Fixtures.temporaryFolder() + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Asserts that loading `path` throws a capture error, and returns it.
    @discardableResult
    func expectCaptureError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> any ClassifiedError {
        let thrown = try #require(throws: (any Error).self, sourceLocation: sourceLocation) {
            _ = try ImageLoader.load(path)
        }
        let error = try #require(thrown as? any ClassifiedError, "\(thrown)", sourceLocation: sourceLocation)
        #expect(error.errorClass == .capture, sourceLocation: sourceLocation)
        return error
    }

    /// The name of an error's case (`tooLarge` for `ImageError.tooLarge(…)`).
    func caseName(_ error: Any) -> String {
        Mirror(reflecting: error).children.first?.label ?? "\(error)"
    }

    @Test func missingFile() throws {
        let error = try expectCaptureError("/nonexistent/label.jpg")
        #expect(error as? InputFileError == .missing(path: "/nonexistent/label.jpg", role: .photo))
    }

    @Test func directoryIsNotAPhoto() throws {
        try expectCaptureError(NSTemporaryDirectory())
    }

    @Test func emptyFile() throws {
        let path = try file("empty.jpg", [])
        let error = try expectCaptureError(path)
        #expect(error as? ImageError == .empty(path: path))
    }

    @Test func textFileNamedJPEG() throws {
        let error = try expectCaptureError(try file("notes.jpg", Array("Sugar, E102, E129\n".utf8)))
        #expect(error is ImageError && caseName(error) == "notAnImage", "\(error)")
    }

    @Test func truncatedJPEG() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: Fixtures.real("irockel_image-5.jpg")))
        for fraction in [0.5, 0.1] {
            let cut = Array(whole.prefix(Int(Double(whole.count) * fraction)))
            let error = try expectCaptureError(try file("cut.jpg", cut))
            #expect(error is ImageError, "\(error)")
        }
        // Only the signature: the header itself is missing.
        try expectCaptureError(try file("stub.jpg", [0xFF, 0xD8, 0xFF, 0xE0]))
    }

    @Test func truncatedPNG() throws {
        let folder = try Fixtures.temporaryFolder()
        let png = folder + "/label.png"
        try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg"))).writePNG(to: png)
        let whole = try Data(contentsOf: URL(fileURLWithPath: png))
        try expectCaptureError(try file("cut.png", Array(whole.prefix(whole.count / 2))))
    }

    @Test func pngHeaderClaimingHugeSize() throws {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8) + be32(30000) + be32(30000) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
        let error = try expectCaptureError(try file("huge.png", bytes))
        #expect(caseName(error) == "tooLarge", "\(error)")
        #expect(error.description.contains("30000×30000"))
    }

    @Test func bmpHeaderClaimingHugeSize() throws {
        var bytes: [UInt8] = Array("BM".utf8) + le32(54) + [0, 0, 0, 0] + le32(54)
        bytes += le32(40) + le32(30000) + le32(30000) + [1, 0, 24, 0] + [UInt8](repeating: 0, count: 24)
        let error = try expectCaptureError(try file("huge.bmp", bytes))
        #expect(caseName(error) == "tooLarge", "\(error)")
    }

    @Test func jpegHeaderClaimingHugeSize() throws {
        // SOI, then a baseline SOF0 segment declaring 30000×30000, 3 components.
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08]
        bytes += [0x75, 0x30, 0x75, 0x30, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xD9]
        try expectCaptureError(try file("huge.jpg", bytes))
    }

    @Test func readersReportCaptureErrors() throws {
        let path = try file("notes.png", Array("not a picture".utf8))
        let ocr = try TesseractLabelReader(languages: ["eng"])
        // `#expect(throws:)` fails when nothing is thrown (a do/catch here passed then).
        let read = #expect(throws: (any Error).self) { try ocr.read(imageAt: path) }
        #expect((read as? any ClassifiedError)?.errorClass == .capture)
        let decode = #expect(throws: (any Error).self) { try ZBarReader().barcodes(inImageAt: "/nonexistent.png") }
        #expect((decode as? any ClassifiedError)?.errorClass == .capture)
    }

    @Test(arguments: ["png", "bmp", "tif", "webp"])
    func acceptsEveryPhotoFormat(ext: String) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/label." + ext
        let source = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg")))
        try source.write(to: path, format: ext)
        let loaded = try ImageLoader.load(path)
        #expect(loaded.width == source.width && loaded.height == source.height)
    }

    // MARK: HEIC, HEIF and AVIF (an iPhone's camera saves HEIC by default)

    static let fixtures = Fixtures.packageRoot + "/Tests/EcodexVisionTests/Fixtures/"

    /// Mean absolute difference of two equally long byte arrays.
    func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.count))
    }

    /// The sample label saved as HEIC and as AVIF reads as the JPEG it was made from: same
    /// size, the same picture up to the two codecs' loss, in every channel.
    @Test(arguments: [Fixtures.packageRoot + "/samples/candy-label.heic", fixtures + "candy-label.avif"])
    func readsHEIFPhotosAsTheirJPEG(path: String) throws {
        let jpeg = try ImageLoader.load(Fixtures.packageRoot + "/samples/candy-label.jpg")
        let heif = try ImageLoader.load(path)
        #expect(heif.width == jpeg.width && heif.height == jpeg.height, "\(heif.width)×\(heif.height)")
        #expect(heif.depth == 32)
        for channel in 0..<3 {
            let difference = meanDifference(try heif.channelBytes(channel), try jpeg.channelBytes(channel))
            #expect(difference < 4, "channel \(channel): \(difference)")
        }
    }

    /// A photo stored sideways with an `irot` box (how an iPhone stores a portrait photo) comes
    /// out upright, and only once: libheif turns it, and its Exif orientation is not applied on top.
    @Test func heifRotationIsAppliedOnce() throws {
        let upright = try ImageLoader.load(Fixtures.packageRoot + "/samples/candy-label.heic")
        var header: (Int, Int)?
        let turned = try ImageLoader.load(Self.fixtures + "candy-label-irot.heic") { header = ($0, $1) }
        #expect(header?.0 == 930 && header?.1 == 484, "the size as shown, from the header")
        #expect(turned.width == 930 && turned.height == 484)
        let difference = meanDifference(try turned.channelBytes(1), try upright.channelBytes(1))
        #expect(difference < 4, "same picture the same way up: \(difference)")
    }

    /// Ecodex turns the decoder's Y, Cb, Cr planes into RGB itself (no full-size RGB copy);
    /// the colours must be libheif's own conversion's (they differ by 0.0002–0.0004 levels on
    /// average; with BT.709's matrix instead of BT.601's the blue channel is off by 1.8).
    @Test func heifColoursMatchLibheifsConversion() throws {
        let path = Fixtures.packageRoot + "/samples/candy-label.heic"
        let ours = try ImageLoader.load(path), libheif = try ImageLoader.load(path, heifThroughRGB: true)
        for channel in 0..<3 {
            let difference = meanDifference(try ours.channelBytes(channel), try libheif.channelBytes(channel))
            #expect(difference < 0.05, "channel \(channel): \(difference)")
        }
    }

    /// A 12 MP HEIC (an iPhone photo's size) is checked at its full size and decoded at
    /// half, as a 12 MP JPEG is.
    @Test func twelveMegapixelHEICIsDecodedReduced() throws {
        var header: (Int, Int)?
        let pix = try ImageLoader.load(Self.fixtures + "label-12mp.heic") { header = ($0, $1) }
        #expect(header?.0 == 4032 && header?.1 == 3024)
        #expect(pix.width == 2016 && pix.height == 1512)
    }

    /// When OCR finds too little, the barcode reader reads the same photo: a HEIC (about 0.5 s
    /// to decode at 12 MP) is not decoded a second time, but a changed file is.
    @Test func heifIsDecodedOnceForTheBarcodeReader() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/IMG_0001.HEIC"
        try FileManager.default.copyItem(atPath: Fixtures.packageRoot + "/samples/candy-label.heic", toPath: path)
        let before = ImageLoader.heifDecodes.value
        let photo = try ImageLoader.load(path)
        let gray = try ImageLoader.loadForBarcodes(path)
        #expect(ImageLoader.heifDecodes.value == before + 1)
        #expect(gray.depth == 8 && gray.width == photo.width && gray.height == photo.height)
        // The kept luminance is handed out once; a file written again is decoded again.
        _ = try ImageLoader.loadForBarcodes(path)
        #expect(ImageLoader.heifDecodes.value == before + 2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        _ = try ImageLoader.load(path)
        try bytes.write(to: URL(fileURLWithPath: path))
        _ = try ImageLoader.loadForBarcodes(path)
        #expect(ImageLoader.heifDecodes.value == before + 4)
        // The barcode reader goes through it.
        _ = try ImageLoader.load(path)
        #expect(try ZBarReader().barcodes(inImageAt: path).isEmpty)
        #expect(ImageLoader.heifDecodes.value == before + 5)
    }

    /// Broken HEIF files are capture errors, never a crash: cut short, a box header claiming
    /// more than the file holds, an ISO media file that is a video, not a photo.
    @Test func damagedHEIFIsACaptureError() throws {
        let heic = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.packageRoot + "/samples/candy-label.heic")))
        let cut = try expectCaptureError(try file("cut.heic", Array(heic.prefix(heic.count / 2))))
        #expect(caseName(cut) == "damaged", "\(cut)")
        var lying = heic
        lying.replaceSubrange(0..<4, with: be32(0x7FFF_FFF0))
        try expectCaptureError(try file("lying.heic", lying))
        let garbage = try expectCaptureError(try file("garbage.heic", Array(heic.prefix(32)) + [UInt8](repeating: 0xA5, count: 4000)))
        #expect(caseName(garbage) == "damaged", "\(garbage)")
        let video = try expectCaptureError(try file("clip.mp4", be32(24) + Array("ftypisom".utf8) + be32(0x200) + Array("isomiso2".utf8)))
        #expect(caseName(video) == "notAnImage", "\(video)")
    }

    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
}
