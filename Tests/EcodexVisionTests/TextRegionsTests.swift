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

/// Engines start on a thread of their own while the photo is decoded and preprocessed, and
/// only the engine the photo needs: a crop's from its header, a frame's after the block search.
@Suite struct EngineStartTests {
    @Test func aCropStartsTheEnglishEngineFromItsHeaderAlone() throws {
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: Fixtures.real("irockel_image-5.jpg"))
        #expect(result.text.contains("Red 40"))
        #expect(reader.enginesStarted == ["eng at header"])
        // The next photo reuses it.
        _ = try reader.read(imageAt: Fixtures.real("irockel_image-0.jpg"))
        #expect(reader.enginesStarted == ["eng at header"])
    }

    @Test(.enabled(if: TessData.latinScriptModel(in: TessData.folder(nil)) != nil, "needs the Latin-script model"))
    func aPhoneFrameStartsOnlyTheSceneEngineAfterTheBlockSearch() throws {
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: TextRegionsTests.synth("g0586"))
        #expect(result.steps.first?.hasPrefix("text blocks") == true, "\(result.steps)")
        #expect(reader.enginesStarted == ["Latin at blocks"])
    }

    @Test func aBigLabelCropStartsTheEnglishEngineAfterTheBlockSearch() throws {
        // 700 px and more but a crop (no blocks): English, decided once the blocks are known.
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: TextRegionsTests.synth("g0055"))
        #expect(result.steps.first?.hasPrefix("text blocks") != true, "\(result.steps)")
        #expect(reader.enginesStarted == ["eng at blocks"])
    }

    @Test func aPhotoThatFailsToDecodeLeavesNoEngineStarting() throws {
        // A valid JPEG header over a damaged body: the engine started from the header is
        // waited for before the error is thrown, so no thread is left inside Tesseract.
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.real("irockel_image-5.jpg")))
        let cut = folder + "/cut.jpg"
        try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: cut))
        let reader = try TesseractLabelReader()
        #expect(throws: (any Error).self) { try reader.read(imageAt: cut) }
        #expect(reader.enginesStarted == ["eng at header"])
        // The engine is whole and reads the next photo.
        #expect(try reader.read(imageAt: Fixtures.real("irockel_image-5.jpg")).text.contains("Red 40"))
    }

    /// A batch on two cores shares one six-language retry engine between its workers.
    @Test(.enabled(if: TesseractLabelReader.installedLanguages().count > 1, "needs more than English"))
    func workersShareOneRetryEngine() throws {
        let reader = try TesseractLabelReader()
        reader.parallelism = 2
        // Unsure in English: each is re-read with all languages.
        let unsure = Fixtures.real("dart_ingredients_coca_light_de.jpg")
        let results = reader.read(imagesAt: [unsure, unsure, unsure])
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(reader.twins.count == 1)
        #expect(reader.twins.allSatisfy { $0.retryEngine === reader.retryEngine })
        #expect(reader.retryEngine.startCount == 1)
        // Both workers read the same page alike.
        let texts = results.compactMap { try? $0.get().text }
        #expect(Set(texts).count == 1)
    }
}
