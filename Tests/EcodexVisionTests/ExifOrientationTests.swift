import Foundation
import Testing
@testable import EcodexVision

/// Phones store a photo's pixels as the sensor gave them and say in Exif how to turn them.
@Suite struct ExifOrientationTests {
    /// A JPEG head: start, an optional JFIF APP0, an APP1 Exif block with one IFD0 entry.
    static func head(orientation: Int, bigEndian: Bool = true, jfif: Bool = false, type: Int = 3) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let tiff = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
            + u16(1) + u16(0x0112) + u16(type) + u32(1) + u16(orientation) + u16(0) + u32(0)
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        var bytes: [UInt8] = [0xFF, 0xD8]
        if jfif { bytes += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0] }
        bytes += [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
        return bytes + [0xFF, 0xDA, 0x00, 0x02]
    }

    @Test func readsTheOrientationInEitherByteOrder() {
        #expect(ExifOrientation.read(Self.head(orientation: 6)) == 6)
        #expect(ExifOrientation.read(Self.head(orientation: 8, bigEndian: false)) == 8)
        #expect(ExifOrientation.read(Self.head(orientation: 3, jfif: true)) == 3)
    }

    @Test func asStoredOrMalformedMeansNoTurn() {
        #expect(ExifOrientation.read(Self.head(orientation: 1)) == nil)
        #expect(ExifOrientation.read(Self.head(orientation: 9)) == nil)
        #expect(ExifOrientation.read(Self.head(orientation: 6, type: 4)) == nil, "not a SHORT")
        #expect(ExifOrientation.read([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]) == nil, "no Exif before the image data")
        #expect(ExifOrientation.read(Array("not a jpeg".utf8)) == nil)
        let whole = Self.head(orientation: 6)
        for cut in 0..<whole.count - 4 {
            // Cut anywhere before the image data: never a crash, never a value read outside the bytes.
            let r = ExifOrientation.read(Array(whole.prefix(cut)))
            #expect(r == nil || r == 6)
        }
        var far = whole
        far[whole.count - 4 - 12 - 2 - 2 - 4] = 0x7F  // IFD0 offset points past the end
        #expect(ExifOrientation.read(far) == nil)
    }

    /// Gold `g0552` (all capitals, which Leptonica's up/down test cannot judge) stored sideways,
    /// as a phone held upright stores it, with Exif orientation 6: loaded upright.
    @Test func aSidewaysPhotoIsLoadedUpright() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let upright = try ImageLoader.load(Fixtures.packageRoot + "/goldset/synth/g0552.jpg")
        // A quarter turn anticlockwise (what orientation 8 undoes): the pixels a phone stores for 6.
        let sideways = try ExifOrientation.upright(upright, orientation: 8)
        let plain = folder + "/sideways.jpg"
        try sideways.write(to: plain, format: "jpg")
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        let app1 = Array(Self.head(orientation: 6).dropFirst(2).dropLast(4))
        let tagged = folder + "/tagged.jpg"
        try Data(Array(jpeg.prefix(2)) + app1 + Array(jpeg.dropFirst(2))).write(to: URL(fileURLWithPath: tagged))

        let withoutTag = try ImageLoader.load(plain)
        #expect(withoutTag.width == upright.height && withoutTag.height == upright.width)
        let loaded = try ImageLoader.load(tagged)
        #expect(loaded.width == upright.width && loaded.height == upright.height)
        // Same pixels as the upright photo, up to JPEG noise; the other way round they differ.
        let a = try loaded.gray().grayBytes(), b = try upright.gray().grayBytes()
        let wrongWay = try ExifOrientation.upright(withoutTag, orientation: 8)
        let c = try wrongWay.gray().grayBytes()
        func meanDifference(_ x: [UInt8], _ y: [UInt8]) -> Double {
            Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(x.count)
        }
        #expect(meanDifference(a, b) < 6, "\(meanDifference(a, b))")
        #expect(c.count == b.count && meanDifference(c, b) > 10, "turned the other way, the photo is upside down")
    }
}

/// Leptonica's up/down test counts ascenders and descenders; capitals have neither.
@Suite struct HalfTurnTests {
    /// Gold `g0118` and `g0552`: upright labels in capitals that the test turned upside down
    /// (up confidence -9.3 and -12.7), so nothing on them was read.
    @Test(arguments: ["g0118", "g0552"])
    func anUprightLabelInCapitalsIsNotTurnedUpsideDown(_ id: String) throws {
        let photo = try ImageLoader.load(Fixtures.packageRoot + "/goldset/synth/\(id).jpg")
        let prepared = try Preprocessor.run(photo)
        #expect(!prepared.steps.contains("rotate 180°"), "steps: \(prepared.steps)")
    }
}
