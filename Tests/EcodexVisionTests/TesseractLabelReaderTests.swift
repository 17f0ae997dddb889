import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// OCR on real label photos from goldset/real, against the installed Tesseract.
/// (Loading Tesseract sets `OMP_THREAD_LIMIT=1` unless the environment sets it: see `VisionLibraries`.)
@Suite struct TesseractLabelReaderTests {
    let reader: TesseractLabelReader

    init() throws {
        reader = try TesseractLabelReader(languages: ["eng"])
    }

    /// Collapses case and spacing so "Yellow  6" and "YELLOW 6" compare equal.
    func squeezed(_ s: String) -> String {
        s.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func readsTheColoursOnACleanLabel() throws {
        let result = try reader.read(imageAt: Fixtures.real("irockel_image-5.jpg"))
        let text = squeezed(result.text)
        for expected in ["yellow 6", "yellow 5", "red 40", "maltodextrin", "monosodium"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
        #expect(result.meanConfidence > 80)
        #expect(result.steps.first == "grayscale")
        // The print's height in the photo (9 px letters), not in the enlarged copy Tesseract read.
        #expect((8.0...10.0).contains(result.printHeight ?? 0), "print height \(result.printHeight ?? 0)")
    }

    @Test(.enabled(if: TesseractLabelReader.installedLanguages().contains("deu"), "needs tesseract-ocr-deu"))
    func readsTheGermanColaLabelCode() throws {
        let de = try TesseractLabelReader(languages: ["deu"])
        let result = try de.read(imageAt: Fixtures.real("dart_ingredients_coca_light_de.jpg"))
        let text = squeezed(result.text)
        for expected in ["acesulfam", "phenylalaninquelle", "zucker"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
    }

    @Test func readsEmulsifierCodesOnWhiteOnRedWrapper() throws {
        let result = try reader.read(imageAt: Fixtures.real("dart_ingredients_en.jpg"))
        #expect(result.steps.contains("invert"))
        // The codes themselves come back as E442/£442 (Core repairs such slips);
        // the digits and the words around them must be there.
        #expect(result.text.contains("442"))
        #expect(result.text.contains("476"))
        #expect(squeezed(result.text).contains("soya lecithin"))
    }

    @Test func wordsHaveSaneConfidencesBoxesAndLines() throws {
        let path = Fixtures.real("irockel_image-12.jpg")
        let result = try reader.read(imageAt: path)
        #expect(result.words.count > 20)
        // Boxes are in the coordinates of the image Tesseract saw: the original
        // scaled by the factor in `steps`.
        let scale = scaleFactor(result.steps)
        let original = try #require(PixImage.read(path))
        let width = Int((Double(original.width) * scale).rounded(.up)) + 1
        let height = Int((Double(original.height) * scale).rounded(.up)) + 1
        var lastLine = 0
        for word in result.words {
            #expect((0...100).contains(word.confidence))
            #expect(word.box.x >= 0 && word.box.y >= 0 && word.box.width > 0 && word.box.height > 0)
            #expect(word.box.x + word.box.width <= width && word.box.y + word.box.height <= height)
            #expect(word.line == lastLine || word.line == lastLine + 1, "lines must be numbered in reading order")
            lastLine = word.line
            #expect(!word.text.isEmpty)
        }
        #expect(lastLine >= 3)
        #expect(result.text.split(separator: "\n").count == lastLine + 1)
        #expect(result.preprocessMs > 0 && result.ocrMs > 0)
    }

    @Test(arguments: [15.0, -20.0])
    func straightensARotatedLabel(degrees: Double) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg")))
        let rotated = try Preprocessor.rotate(original.gray(), degrees: degrees)
        let path = folder + "/rotated.png"
        try rotated.writePNG(to: path)

        let result = try reader.read(imageAt: path)
        let deskew = try #require(result.steps.first { $0.hasPrefix("deskew ") }, "steps: \(result.steps)")
        let angle = try #require(Double(deskew.dropFirst("deskew ".count).dropLast()))
        #expect(abs(angle + degrees) < 1.5, "measured \(angle)° for a \(degrees)° turn")
        let text = squeezed(result.text)
        #expect(text.contains("yellow 6") || text.contains("red 40"), "\(result.text)")
        #expect(text.contains("maltodextrin"))
    }

    /// Bends a flat label photo into an arc, as on a can, and reads it back.
    @Test func straightensLinesBentIntoAnArc() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg"))).gray()
        let w = original.width, h = original.height
        let textHeight = try #require(Preprocessor.medianTextHeight(original, threshold: 128))
        // Ends three text heights below the middle: lines drift into their neighbours.
        let depth = 3 * textHeight
        let arc = Curvature.Bend(shift: (0..<w).map { x in
            let u = 2 * Double(x) / Double(w) - 1
            return -depth * u * u
        }, bow: depth, residual: 0)
        let bent = Curvature.straighten(original.grayBytes(), width: w, height: h, bend: arc, paper: 255)
        let path = folder + "/bent.png"
        try PixImage.gray(bent.bytes, width: w, height: bent.height).writePNG(to: path)

        let measured = try #require(Curvature.measure(bent.bytes, width: w, height: bent.height, textHeight: textHeight))
        #expect(abs(measured.bow - depth) < depth * 0.25, "measured a bow of \(measured.bow) px for \(depth) px")

        let result = try reader.read(imageAt: path)
        #expect(result.steps.contains { $0.hasPrefix("straighten curved lines") }, "steps: \(result.steps)")
        let text = squeezed(result.text)
        for expected in ["yellow 6", "red 40", "maltodextrin"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
    }

    @Test func recognitionStopsAtItsTimeLimitAndKeepsWhatItRead() throws {
        let hurried = try TesseractLabelReader(languages: ["eng"], dataPath: nil, options: PreprocessOptions(), budgetMs: 1)
        let result = try hurried.read(imageAt: Fixtures.real("irockel_image-5.jpg"))
        #expect(result.timedOut)
        // Without a limit a loaded machine can reach, the same photo is read in full.
        let patient = try TesseractLabelReader(languages: ["eng"], dataPath: nil, options: PreprocessOptions(), budgetMs: 600_000)
        let normal = try patient.read(imageAt: Fixtures.real("irockel_image-5.jpg"))
        #expect(!normal.timedOut)
        #expect(result.words.count < normal.words.count)
    }

    @Test func flatLabelsAreNotStraightened() throws {
        for name in ["irockel_image-5.jpg", "irockel_image-12.jpg"] {
            let result = try reader.read(imageAt: Fixtures.real(name))
            #expect(!result.steps.contains { $0.hasPrefix("straighten") }, "\(name): \(result.steps)")
            #expect(!result.steps.contains { $0.hasPrefix("denoise") }, "\(name): \(result.steps)")
        }
    }

    /// A label photographed in poor light, dim and grainy (a hard-tier gold-set image).
    @Test func smoothsGrainOutOfADarkPhoto() throws {
        let path = Fixtures.packageRoot + "/goldset/synth/g0098.jpg"
        let result = try reader.read(imageAt: path)
        #expect(result.steps.contains { $0.hasPrefix("denoise") }, "steps: \(result.steps)")
        let text = squeezed(result.text)
        for expected in ["verdickungsmittel", "e415", "weissweinessig"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
        var plain = PreprocessOptions()
        plain.denoise = false
        let grainy = try TesseractLabelReader(languages: ["eng"], dataPath: nil, options: plain).read(imageAt: path)
        #expect(!squeezed(grainy.text).contains("e415"), "without smoothing: \(grainy.text)")
    }

    @Test func turnsSidewaysTextUpright() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg")))
        let path = folder + "/sideways.png"
        try Preprocessor.rotate(original.gray(), degrees: 90).writePNG(to: path)

        let result = try reader.read(imageAt: path)
        #expect(result.steps.contains("rotate 270°"), "steps: \(result.steps)")
        let text = squeezed(result.text)
        #expect(text.contains("red 40") && text.contains("maltodextrin"), "\(result.text)")
    }

    @Test func invertsLightTextOnDark() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg")))
        let path = folder + "/inverted.png"
        try original.inverted().writePNG(to: path)

        let result = try reader.read(imageAt: path)
        #expect(result.steps.contains("invert"))
        let text = squeezed(result.text)
        #expect(text.contains("yellow 6") && text.contains("red 40"), "\(result.text)")
    }

    /// A white label lying on a darker table: the ground is the majority and dark, the text
    /// is dark too. Inverted (the majority rule alone), it read as letter soup.
    @Test func aWhiteLabelOnADarkTableIsNotInverted() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let label = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg"))).gray()
        // The label in the middle of a table three times its size, 80 % of the photo dark.
        let (w, h) = (label.width * 3, label.height * 3)
        var table = [UInt8](repeating: 70, count: w * h)
        let bytes = label.grayBytes()
        for y in 0..<label.height {
            for x in 0..<label.width { table[(y + label.height) * w + x + label.width] = bytes[y * label.width + x] }
        }
        let path = folder + "/on-table.png"
        try PixImage.gray(table, width: w, height: h).writePNG(to: path)

        let result = try reader.read(imageAt: path)
        #expect(!result.steps.contains("invert"), "steps: \(result.steps)")
        let text = squeezed(result.text)
        #expect(text.contains("red 40") && text.contains("maltodextrin"), "\(result.text)")
    }

    /// `label` (gray) at the left of a canvas `scale` times its width, filled with `ground`.
    static func besideGround(_ label: PixImage, scale: Double, ground: UInt8) throws -> PixImage {
        let w = Int(Double(label.width) * scale), h = label.height
        var canvas = [UInt8](repeating: ground, count: w * h)
        let bytes = label.grayBytes()
        for y in 0..<h {
            for x in 0..<label.width { canvas[y * w + x] = bytes[y * label.width + x] }
        }
        return try PixImage.gray(canvas, width: w, height: h)
    }

    static func lightOnDark(_ pix: PixImage) -> Bool {
        Preprocessor.isLightOnDark(pix, split: GrayStats(pix.grayBytes()).otsu)
    }

    /// A block cut from a camera frame: white print on a dark panel beside a light hand, so the
    /// dark side is under the majority (here about 45 %). The light side forms the letters, so it
    /// is inverted (before, only a dark majority was). Dark print on white beside a dark shelf,
    /// split as evenly, is not.
    @Test func lightPrintOnAPanelBesideALightHandIsInverted() throws {
        let label = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg"))).gray()
        let panel = try Self.besideGround(label.inverted(), scale: 2, ground: 225)
        let panelSplit = GrayStats(panel.grayBytes()).otsu
        #expect((0.35...0.6).contains(panelSplit.darkFraction), "dark share \(panelSplit.darkFraction)")
        #expect(Self.lightOnDark(panel))

        let onShelf = try Self.besideGround(label, scale: 1.7, ground: 60)
        let shelfSplit = GrayStats(onShelf.grayBytes()).otsu
        #expect((0.35...0.6).contains(shelfSplit.darkFraction), "dark share \(shelfSplit.darkFraction)")
        #expect(!Self.lightOnDark(onShelf))
    }

    /// Gold `g0568` (a phone frame): the ingredient panel is white print on blue, held in a
    /// light hand. Its block read as letter soup uninverted; inverted, its three codes read.
    @Test func aPhoneFramesWhitePrintOnAPanelReads() throws {
        let result = try TesseractLabelReader().read(imageAt: Fixtures.packageRoot + "/goldset/synth/g0568.jpg")
        let text = squeezed(result.text)
        for expected in ["e304", "e331", "401"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
    }

    /// Gold `g0340`: a dark, grainy photo. Two median passes left broken strokes among specks, the
    /// specks set the print height (4 px for 16 px letters, so the shopper was told to come
    /// closer) and nothing was read; the grain is now averaged out.
    @Test func heavyGrainIsAveragedOutAndThePrintMeasuredOnItsLetters() throws {
        let result = try reader.read(imageAt: Fixtures.packageRoot + "/goldset/synth/g0340.jpg")
        #expect(result.steps.contains { $0.hasPrefix("denoise") && $0.hasSuffix("smoothed)") }, "\(result.steps)")
        #expect((result.printHeight ?? 0) >= 12, "print height \(result.printHeight ?? 0)")
        let text = squeezed(result.text)
        for expected in ["e331", "e301", "colza"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text.prefix(300))")
        }
    }

    /// A shopper's photo of the ingredient panel itself: gold `g0364`'s label (condensed Spanish
    /// print, turned a little) enlarged into a 1600×1200 photo, its paper around it. No block
    /// stands out, so it is read whole as a scene; its print is 17 px, so in page mode 6. In
    /// mode 4, as camera frames read whole, Tesseract found no line of it at all.
    @Test func aPhotoOfThePanelIsReadWhole() throws {
        let label = try ImageLoader.load(Fixtures.packageRoot + "/goldset/synth/g0364.jpg").gray()
        let scaled = try label.scaled(1440 / Double(label.width))
        let bytes = scaled.grayBytes()
        let paper = bytes.sorted()[bytes.count / 2]
        let (w, h) = (1600, 1200)
        var photo = [UInt8](repeating: paper, count: w * h)
        let (x0, y0) = ((w - scaled.width) / 2, (h - scaled.height) / 2)
        for y in 0..<scaled.height {
            photo.replaceSubrange((y0 + y) * w + x0 ..< (y0 + y) * w + x0 + scaled.width,
                                  with: bytes[y * scaled.width ..< (y + 1) * scaled.width])
        }
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/panel.png"
        try PixImage.gray(photo, width: w, height: h).writePNG(to: path)

        let result = try TesseractLabelReader().read(imageAt: path)
        #expect(!result.steps.contains { $0.hasPrefix("text blocks") }, "\(result.steps)")
        #expect((result.printHeight ?? 0) >= ReadingPlan.panelPrintHeight, "print \(result.printHeight ?? 0)")
        let text = squeezed(result.text)
        for expected in ["espesante", "desnatada en polvo", "copos de avena", "corrector de"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
    }

    /// Gold `g0412`: a white label tilted 22° on a darker table. Leptonica's up/down test,
    /// asked on the tilted lines, turned it upside down; it is now checked on a straightened copy.
    @Test func aTiltedLabelOnADarkTableIsNotTurnedUpsideDown() throws {
        let result = try reader.read(imageAt: Fixtures.packageRoot + "/goldset/synth/g0412.jpg")
        #expect(!result.steps.contains { $0.hasPrefix("rotate ") }, "steps: \(result.steps)")
        #expect(!result.steps.contains("invert"), "steps: \(result.steps)")
        let text = squeezed(result.text)
        #expect(text.contains("ingredienti") && text.contains("e306"), "\(result.text)")
    }

    /// The sample label upside down, with no Exif to say so: Leptonica leans to a half turn
    /// (up confidence about -10) too weakly to take it, so the unsure reading is tried turned too.
    @Test func anUpsideDownLabelWithoutExifIsReadBothWays() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/upside-down.jpg"
        try ImageLoader.load(Fixtures.packageRoot + "/samples/candy-label.jpg").turned(2).write(to: path, format: "jpg")
        let result = try reader.read(imageAt: path)
        #expect(result.steps.contains("rotate 180° (read both ways)"), "steps: \(result.steps)")
        #expect(squeezed(result.text).contains("citric acid"), "\(result.text)")
    }

    /// Gold `g0042` (a pickle jar's list in capitals) turned a quarter either way, with no Exif
    /// to say so: Leptonica's up/down test sees too few ascenders to ask for a turn (it read
    /// nothing before), but the lines run up the image, so it is turned level and read; which
    /// way up is settled by reading an unsure page both ways.
    @Test(arguments: [1, 3]) func aLabelTurnedAQuarterWithoutExifIsLaidLevel(quarters: Int) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/sideways.png"
        try ImageLoader.load(Fixtures.packageRoot + "/goldset/synth/g0042.jpg").turned(quarters).writePNG(to: path)
        let result = try reader.read(imageAt: path)
        #expect(result.steps.contains { $0.hasPrefix("rotate 90°") || $0.hasPrefix("rotate 270°") }, "steps: \(result.steps)")
        let text = squeezed(result.text)
        for expected in ["sodium benzoate", "polysorbate 80", "calcium chloride"] {
            #expect(text.contains(expected), "missing \(expected) in \(result.text)")
        }
    }

    @Test func upscalesATinyCrop() throws {
        // 200×109 px: characters about 5 px tall, far below what the LSTM model was trained on.
        let result = try reader.read(imageAt: Fixtures.real("dart_ingredients_small_en.jpg"))
        #expect(result.steps.contains { $0.hasPrefix("upscale x") }, "steps: \(result.steps)")
        let text = squeezed(result.text)
        #expect(text.contains("wheat flour") && text.contains("calcium"), "\(result.text)")
    }

    @Test func downscalesABigPhoto() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg")))
        let path = folder + "/big.png"
        try original.gray().scaled(8).writePNG(to: path)   // 2112×1792, text ~90 px tall

        let result = try reader.read(imageAt: path)
        #expect(result.steps.contains { $0.hasPrefix("downscale x") }, "steps: \(result.steps)")
        #expect(squeezed(result.text).contains("red 40"))
    }

    @Test func missingLanguageNamesTheLanguageAndFolder() throws {
        #expect(throws: OCRError.languageMissing(language: "xyz", folder: TessData.folder(nil))) {
            try TesseractLabelReader(languages: ["eng", "xyz"])
        }
    }

    @Test(.enabled(if: TesseractLabelReader.installedLanguages().contains("deu"), "needs tesseract-ocr-deu"))
    func acceptsPlusSeparatedLanguages() throws {
        let reader = try TesseractLabelReader(languages: ["eng+deu"])
        #expect(reader.languages == ["eng", "deu"])
    }

    @Test func missingDataFolderIsAnOCRError() throws {
        let error = try #require(throws: OCRError.self) {
            try TesseractLabelReader(languages: ["eng"], dataPath: "/nonexistent/tessdata")
        }
        #expect(error.errorClass == .ocr)
        #expect(error.description.contains("/nonexistent/tessdata"))
    }

    @Test func defaultLanguagesAreTheInstalledLabelLanguages() {
        let installed = TesseractLabelReader.installedLanguages()
        #expect(installed.first == "eng")
        #expect(Set(installed).isSubset(of: ["eng", "deu", "fra", "spa", "ita", "nld"]))
        #expect(TesseractLabelReader.installedLanguages(dataPath: "/nonexistent").isEmpty)
    }

    /// The product of the rescale factors listed in `steps`.
    func scaleFactor(_ steps: [String]) -> Double {
        steps.compactMap { step -> Double? in
            guard step.hasPrefix("upscale x") || step.hasPrefix("downscale x") else { return nil }
            return Double(step.split(separator: "x").last ?? "")
        }.reduce(1, *)
    }
}

/// The default reader: English first; an unsure page again with English and the languages
/// that first reading shows.
@Suite struct DefaultLanguageReaderTests {
    @Test(.enabled(if: TesseractLabelReader.installedLanguages().contains("deu"), "needs tesseract-ocr-deu"))
    func unsureGermanLabelIsReRead() throws {
        let reader = try TesseractLabelReader()
        #expect(reader.languages == TesseractLabelReader.installedLanguages())
        let result = try reader.read(imageAt: Fixtures.real("dart_ingredients_coca_light_de.jpg"))
        // "Enthält" keeps its umlaut only when the German model read the line.
        #expect(result.text.contains("Enthält"), "\(result.text)")
        #expect(result.text.contains("Acesulfam K"), "\(result.text)")
        // Read again with English and German, not all six models (50 MB, not 130).
        #expect(reader.retryEngine.started == [["eng", "deu"]])
    }

    /// An unsure page whose first reading is plainly English is not read again with other
    /// languages: they would not know its words better, and the engine costs 100+ MB.
    @Test(.enabled(if: TesseractLabelReader.installedLanguages().count > 1, "needs more than English"))
    func unsureEnglishLabelIsNotReReadInOtherLanguages() throws {
        let reader = try TesseractLabelReader()
        // Small, soft print: 57 mean confidence in English, so the old rule re-read it with all six.
        let result = try reader.read(imageAt: Fixtures.real("irockel_image-7.jpg"))
        #expect(result.meanConfidence < 75)
        #expect(reader.retryEngine.startCount == 0)
        for expected in ["yellow 6", "BHT for freshness", "turmeric"] {
            #expect(result.text.contains(expected), "missing \(expected) in \(result.text)")
        }
    }

    @Test func confidentEnglishLabelStaysOnTheFastPath() throws {
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: Fixtures.real("irockel_image-5.jpg"))
        #expect(result.meanConfidence >= 75)
        #expect(result.text.contains("Red 40"))
    }
}
