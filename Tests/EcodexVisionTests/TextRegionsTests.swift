import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Finding the ingredient text in a whole phone frame (a package in a hand in a scene),
/// and leaving label crops alone.
@Suite struct TextRegionsTests {
    static func synth(_ id: String) -> String { Fixtures.packageRoot + "/goldset/synth/\(id).jpg" }

    static func load(_ path: String) throws -> PixImage { try ImageLoader.load(path) }

    /// A phone frame: the label is a small block in a busy scene, found where it is.
    @Test(arguments: ["g0580", "g0586", "g0589"])
    func phoneFramesGiveASmallBlockAroundTheLabel(_ id: String) throws {
        let pix = try Self.load(Self.synth(id))
        let blocks = TextRegions.find(pix)
        #expect(!blocks.isEmpty, "\(id): no text block found")
        let area = blocks.reduce(0) { $0 + $1.width * $1.height }
        #expect(Double(area) < 0.5 * Double(pix.pixelCount), "\(id): blocks cover \(area) of \(pix.pixelCount) pixels")
        #expect(blocks.allSatisfy { $0.lineHeight < 20 }, "\(id): small print: \(blocks.map(\.lineHeight))")
    }

    /// A label crop (text from edge to edge on paper) is read whole, as before.
    @Test(arguments: ["irockel_image-5.jpg", "irockel_image-0.jpg", "dart_ingredients_coca_light_de.jpg"])
    func labelCropsAreReadWhole(_ name: String) throws {
        #expect(TextRegions.find(try Self.load(Fixtures.real(name))).isEmpty)
    }

    @Test(arguments: ["g0001", "g0100", "g0342", "g0560"])
    func renderedCropsAreReadWhole(_ id: String) throws {
        #expect(TextRegions.find(try Self.load(Self.synth(id))).isEmpty, "\(id)")
    }

    /// End to end in the reader: a phone frame is read block by block, and the codes on
    /// its label come out of the default reader (Latin-script model when installed).
    @Test func readerReadsAPhoneFrameBlockByBlock() throws {
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: Self.synth("g0586"))
        #expect(result.steps.first?.hasPrefix("text blocks") == true, "\(result.steps)")
        let text = result.text.uppercased()
        for code in ["E170", "E210", "E235", "E270", "E300"] {
            #expect(text.contains(code) || text.contains(code.replacingOccurrences(of: "E", with: "E ")),
                    "missing \(code) in \(result.text)")
        }
    }

    /// Two photos read at once come back in input order, each with its own words.
    @Test func severalPhotosAreReadInInputOrder() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        let paths = [Fixtures.real("irockel_image-5.jpg"), "/nonexistent.jpg", Fixtures.real("irockel_image-0.jpg")]
        let results = reader.read(imagesAt: paths)
        #expect(results.count == 3)
        let first = try results[0].get(), third = try results[2].get()
        #expect(first.text.lowercased().contains("yellow"))
        #expect(third.text.lowercased().contains("ingredients"))
        #expect(throws: InputFileError.missing(path: "/nonexistent.jpg", role: .photo)) { try results[1].get() }
    }
}
