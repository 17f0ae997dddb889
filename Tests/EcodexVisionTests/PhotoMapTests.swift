import EcodexCore
import Foundation
import Testing
internal import CLeptonica
@testable import EcodexVision

/// Word boxes mapped back from the image Tesseract read to the photo the shopper took
/// (for outlining words on the HTML page).
@Suite struct PhotoMapTests {
    /// A white `width`×`height` image with one black 4×4 dot whose top-left is (`x`, `y`).
    static func dot(width: Int = 300, height: Int = 200, x: Int, y: Int) throws -> PixImage {
        var bytes = [UInt8](repeating: 255, count: width * height)
        for yy in y..<(y + 4) { for xx in x..<(x + 4) { bytes[yy * width + xx] = 0 } }
        return try PixImage.gray(bytes, width: width, height: height)
    }

    /// The centre of the dark pixels.
    static func centre(_ pix: PixImage) -> (x: Double, y: Double) {
        let b = pix.grayBytes()
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0..<pix.height {
            for x in 0..<pix.width where b[y * pix.width + x] < 128 {
                sx += Double(x); sy += Double(y); n += 1
            }
        }
        return (sx / n, sy / n)
    }

    /// Each geometric step, done by Leptonica exactly as preprocessing does it, and undone by
    /// the map: the dot comes back where it was (within a pixel and a half).
    @Test(arguments: ["scale", "quarter1", "quarter2", "quarter3", "rotate", "crop", "fan"])
    func eachStepIsUndone(_ step: String) throws {
        let src = try Self.dot(x: 220, y: 40)
        let before = Self.centre(src)
        var map = PhotoMap()
        let out: PixImage
        switch step {
        case "scale":
            out = try src.map("pixScale") { pixScale($0, 2.5, 2.5) }
            map.append(.scale(Double(out.width) / Double(src.width)))
        case "quarter1", "quarter2", "quarter3":
            let n = Int(String(step.last!))!
            map.append(.quarterTurns(n, width: src.width, height: src.height))
            out = try src.map("pixRotateOrth") { pixRotateOrth($0, Int32(n)) }
        case "rotate":
            out = try Preprocessor.rotate(src, degrees: 14)
            map.append(.rotate(radians: 14 * .pi / 180, from: (src.width, src.height), to: (out.width, out.height)))
        case "fan":
            // Tilts from 2° at the top to 8° at the bottom: the dot, far right of the middle,
            // moves by 8 to 10 px.
            let fan = LineFan.Fan(a: 2, b: 6.0 / Double(src.height), yLow: 0, yHigh: Double(src.height), residual: 0)
            let level = LineFan.level(src.grayBytes(), width: src.width, height: src.height, fan: fan, paper: 255)
            out = try PixImage.gray(level.bytes, width: src.width, height: level.height)
            map.append(.fan(fan, pad: level.pad, width: src.width))
        default:
            out = try src.cropped(x: 150, y: 10, width: 120, height: 100)
            map = PhotoMap()
            map.append(.crop(x: 150, y: 10))
        }
        let after = Self.centre(out)
        let back = map.photoPoint(after.x + 0.5, after.y + 0.5)
        #expect(abs(back.x - 0.5 - before.x) < 1.5 && abs(back.y - 0.5 - before.y) < 1.5,
                "\(step): dot at \(before), read at \(after), mapped back to \(back)")
    }

    /// Steps compose in order: a crop, then a scale, then a turn.
    @Test func stepsAreUndoneInReverseOrder() throws {
        let src = try Self.dot(width: 400, height: 300, x: 260, y: 120)
        let crop = try src.cropped(x: 200, y: 100, width: 150, height: 120)
        let scaled = try crop.map("pixScale") { pixScale($0, 2, 2) }
        let turned = try scaled.map("pixRotateOrth") { pixRotateOrth($0, 1) }
        var cut = PhotoMap()
        cut.append(.crop(x: 200, y: 100))
        var rest = PhotoMap()
        rest.append(.scale(2))
        rest.append(.quarterTurns(1, width: scaled.width, height: scaled.height))
        let c = Self.centre(turned)
        let back = rest.after(cut).photoPoint(c.x + 0.5, c.y + 0.5)
        let before = Self.centre(src)
        #expect(abs(back.x - 0.5 - before.x) < 1.5 && abs(back.y - 0.5 - before.y) < 1.5, "\(before) → \(back)")
    }

    /// Through the real reader: a label pasted small at an offset on a bigger photo is
    /// enlarged before Tesseract reads it, and every word's photo box lands on the label where
    /// the same word sits when the label is read alone (shrunk and moved the same way).
    @Test func readerBoxesLandOnThePhoto() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        reader.keepsPreview = true
        // A straight, clean label crop of the gold set (the candy sample is tilted 4°, and
        // pasted on a wide white margin its tilt is no longer measured: see docs/history.md).
        let label = Fixtures.packageRoot + "/goldset/synth/g0001.jpg"
        let alone = try reader.read(imageAt: label)
        let pix = try ImageLoader.load(label)
        let k = 0.6, ox = 230, oy = 310
        let small = try pix.scaled(k)
        let photo = try small.placedOnCanvas(width: small.width + 2 * ox, height: small.height + 2 * oy, x: ox, y: oy)
        let dir = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/placed.png"
        try photo.writePNG(to: path)
        let placed = try reader.read(imageAt: path)

        // Words read once in each reading, sure in both, compared by their centres.
        func unique(_ r: OCRResult) -> [String: BoundingBox] {
            let sure = r.words.filter { $0.confidence >= 80 && $0.text.count >= 4 }
            let counts = Dictionary(sure.map { ($0.text, 1) }, uniquingKeysWith: +)
            return Dictionary(uniqueKeysWithValues: sure.filter { counts[$0.text] == 1 }.compactMap { w in w.photoBox.map { (w.text, $0) } })
        }
        let a = unique(alone), b = unique(placed)
        let shared = Set(a.keys).intersection(b.keys)
        #expect(shared.count >= 8, "only \(shared.count) words in common: \(placed.text.prefix(200))")
        var misses: [String] = []
        for word in shared {
            let p = a[word]!, q = b[word]!
            let ex = (Double(p.x) + Double(p.width) / 2) * k + Double(ox), ey = (Double(p.y) + Double(p.height) / 2) * k + Double(oy)
            let gx = Double(q.x) + Double(q.width) / 2, gy = Double(q.y) + Double(q.height) / 2
            if abs(gx - ex) > 4 || abs(gy - ey) > 4 { misses.append("\(word): expected (\(ex), \(ey)), got (\(gx), \(gy))") }
        }
        #expect(misses.isEmpty, "\(misses)")
        // The photo boxes are on the label, not in the empty margin around it.
        for w in placed.words {
            let box = try #require(w.photoBox)
            #expect(box.x >= ox - 4 && box.y >= oy - 4 && box.x + box.width <= ox + small.width + 4
                    && box.y + box.height <= oy + small.height + 4, "\(w.text) at \(box)")
        }
    }

    /// The reader keeps a small JPEG of the photo only when asked; every word has its photo box
    /// all the same (the capture measures and a burst's alignment use them).
    @Test func previewOnlyWhenAsked() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        let label = Fixtures.packageRoot + "/samples/candy-label.jpg"
        let plain = try reader.read(imageAt: label)
        #expect(plain.preview == nil && !plain.words.isEmpty && plain.words.allSatisfy { $0.photoBox != nil })
        reader.keepsPreview = true
        let preview = try #require(try reader.read(imageAt: label).preview)
        #expect(preview.jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(max(preview.width, preview.height) <= TesseractLabelReader.previewMaxSide)
        let pix = try ImageLoader.load(label)
        #expect(abs(preview.scale - Double(preview.width) / Double(pix.width)) < 1e-9)
    }
}
