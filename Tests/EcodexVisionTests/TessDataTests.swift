import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// The Latin-script model started without its word list (a quarter of the memory).
@Suite struct TessDataTests {
    static var latin: String? { TessData.latinScriptModel(in: TessData.folder(nil)).map { TessData.file($0, in: TessData.folder(nil)) } }

    /// Entry table of a model file: absolute offsets, −1 when absent.
    static func table(_ b: [UInt8]) -> [Int] {
        let n = Int(UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24)
        return (0..<n).map { i in
            var v: Int64 = 0
            for k in 0..<8 { v |= Int64(b[4 + 8 * i + k]) << (8 * Int64(k)) }
            return Int(v)
        }
    }

    /// Every entry but the word list is kept byte for byte, at offsets that add up.
    @Test func strippedModelKeepsEveryOtherEntry() throws {
        let path = try #require(Self.latin, "tesseract-ocr-script-latn missing: run scripts/install-deps.sh")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let stripped = try #require(TessData.withoutWordList(path: path))
        let a = Self.table(original), b = Self.table(stripped)
        #expect(a.count == b.count && a[TessData.lstmWordListEntry] >= 0 && b[TessData.lstmWordListEntry] == -1)
        func entry(_ bytes: [UInt8], _ t: [Int], _ i: Int) -> ArraySlice<UInt8> {
            let end = t[(i + 1)...].first { $0 >= 0 } ?? bytes.count
            return bytes[t[i]..<end]
        }
        for i in a.indices where a[i] >= 0 && i != TessData.lstmWordListEntry {
            #expect(entry(original, a, i) == entry(stripped, b, i), "entry \(i) changed")
        }
        #expect(stripped.count < original.count / 10)
    }

    /// Anything that is not a model with a word list is refused (the engine then loads the file).
    @Test func notAModelGivesNil() throws {
        let dir = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, bytes) in [("empty", [UInt8]()), ("short", [1, 2]), ("huge-count", [0xFF, 0xFF, 0xFF, 0x7F] + [UInt8](repeating: 0, count: 64)),
                              ("offsets-out-of-file", [24, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8 * 17) + [196, 0, 0, 0, 0, 0, 0, 0]
                                + [UInt8](repeating: 0x7F, count: 8 * 6))] {
            let p = dir + "/\(name).traineddata"
            try Data(bytes).write(to: URL(fileURLWithPath: p))
            #expect(TessData.withoutWordList(path: p) == nil, "\(name)")
        }
        #expect(TessData.withoutWordList(path: dir + "/missing.traineddata") == nil)
    }

    /// An engine started from the stripped bytes reads text.
    @Test func engineStartsFromStrippedBytes() throws {
        let path = try #require(Self.latin)
        let engine = try TesseractEngine(dataPath: TessData.folder(nil), languages: ["Latin"], pageSegMode: 6,
                                         model: try #require(TessData.withoutWordList(path: path)))
        let pix = try ImageLoader.load(Fixtures.packageRoot + "/goldset/synth/g0001.jpg")
        let words = try engine.recognize(pix).words.map(\.text).joined(separator: " ")
        #expect(words.contains("sugar") && words.contains("150d"), "\(words)")
    }
}
