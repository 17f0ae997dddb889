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

    @Test(.enabled(if: TessData.latinScriptModel(in: TessData.folder(nil)) != nil, "needs the Latin-script model"))
    func aBigPhotoWithNoBlockIsReadWholeAsAScene() throws {
        // 700 px and more but no block stands out: read whole with the scene engine, decided
        // once the blocks are known, and never re-read with all six languages.
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: TextRegionsTests.synth("g0055"))
        #expect(result.steps.first?.hasPrefix("text blocks") != true, "\(result.steps)")
        #expect(reader.enginesStarted == ["Latin at blocks"])
        #expect(result.text.contains("ANTIOXYDANTS: E 301"), "\(result.text)")
        #expect(reader.retryEngine.startCount == 0)
    }

    /// A 1080×1920 frame, a carton held over a dark table, no block standing out. Its ground
    /// is dark in the chosen channel, so preprocessing inverts the frame, though the list is
    /// dark print on a pale panel: without Tesseract's own per-line inversion the Latin engine
    /// read letter soup there.
    @Test(.enabled(if: TessData.latinScriptModel(in: TessData.folder(nil)) != nil, "needs the Latin-script model"))
    func aWholeFrameOfMixedPolarityIsRead() throws {
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: TextRegionsTests.synth("g0575"))
        #expect(result.steps.first?.hasPrefix("text blocks") != true, "\(result.steps)")
        let text = result.text
        for expected in ["Zutaten", "E334", "Ingredienti", "conservante"] {
            #expect(text.contains(expected), "missing \(expected) in \(text)")
        }
    }

    /// A photo read alone has both cores: the blocks of a scene are read by two engines at
    /// once, and the words come out as one engine reads them, in the same order and places.
    /// (`g0597`, a 1080×1920 frame with two blocks; the test sets the bar for a second engine
    /// to any second block, so that a change of the bar does not change what is tested.)
    @Test(.enabled(if: TessData.latinScriptModel(in: TessData.folder(nil)) != nil, "needs the Latin-script model"))
    func aSceneReadAloneUsesTwoEnginesForTheSameWords() throws {
        let path = TextRegionsTests.synth("g0597")
        let two = try TesseractLabelReader()
        two.parallelism = 2
        two.secondEngineFrom = 0
        let one = try TesseractLabelReader()
        one.parallelism = 1
        let a = try two.read(imageAt: path), b = try one.read(imageAt: path)
        #expect(two.enginesStarted == ["Latin at blocks", "Latin at blocks (second)"])
        #expect(one.enginesStarted == ["Latin at blocks"])
        #expect(a.words.count > 80, "\(a.text)")
        #expect(a.words.map(\.text) == b.words.map(\.text))
        #expect(a.words.map(\.line) == b.words.map(\.line))
        #expect(a.words.map(\.box) == b.words.map(\.box))
        #expect(a.text.contains("E171"), "\(a.text)")
        // The second engine is kept for the next photo.
        _ = try two.read(imageAt: path)
        #expect(two.enginesStarted == ["Latin at blocks", "Latin at blocks (second)"])
    }

    /// A second engine only for print outside the biggest block: a label and a price tag beside
    /// it read on one engine (its start would cost more than it saves).
    @Test func aSecondEngineIsForPrintBesidesTheBiggestBlock() {
        func blocks(_ letters: [Int]) -> [TextRegions.Block] {
            letters.map { TextRegions.Block(x: 0, y: 0, width: 10, height: 10, lineHeight: 8, lines: 3, letters: $0) }
        }
        let bar = ReadingPlan.secondEngineMinLetters
        #expect(!ReadingPlan.secondEnginePays(blocks([900]), from: bar))
        #expect(!ReadingPlan.secondEnginePays(blocks([900, bar - 1]), from: bar))
        #expect(ReadingPlan.secondEnginePays(blocks([900, bar]), from: bar))
        #expect(ReadingPlan.secondEnginePays(blocks([60, 900, bar - 60]), from: bar))
    }

    /// In a batch every core already reads a photo of its own: no photo takes a second engine.
    @Test(.enabled(if: TessData.latinScriptModel(in: TessData.folder(nil)) != nil, "needs the Latin-script model"))
    func aBatchGivesEachPhotoOneEngine() throws {
        let reader = try TesseractLabelReader()
        reader.parallelism = 2
        reader.secondEngineFrom = 0
        let results = reader.read(imagesAt: [TextRegionsTests.synth("g0597"), TextRegionsTests.synth("g0597")])
        #expect(try results.map { try $0.get().text }.allSatisfy { $0.contains("E171") })
        #expect(([reader] + reader.twins).allSatisfy { !$0.enginesStarted.contains { $0.hasSuffix("(second)") } },
                "\(([reader] + reader.twins).map(\.enginesStarted))")
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

    /// A batch on two cores shares its retry engines between its workers, within the weight
    /// of one engine with every language.
    @Test(.enabled(if: TesseractLabelReader.installedLanguages().count > 1, "needs more than English"))
    func workersShareTheRetryEngines() throws {
        // The default budget: a worker's wait for the shared engine no longer comes out of it
        // (it did, and the texts below differed beside a benchmark on both cores).
        let reader = try TesseractLabelReader(languages: nil, dataPath: nil, options: PreprocessOptions())
        reader.parallelism = 2
        // Its own memory budget: a large decode of another test must not let its idle engines go.
        reader.memory = PhotoMemory(capacity: ImageLoader.maxDecodeBytes)
        // Unsure in English: each is re-read (English and German).
        let unsure = Fixtures.real("dart_ingredients_coca_light_de.jpg")
        let results = reader.read(imagesAt: [unsure, unsure, unsure])
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(reader.twins.count == 1)
        #expect(reader.twins.allSatisfy { $0.retryEngine === reader.retryEngine })
        // One engine, or one per worker when both re-read at once; never one per photo.
        #expect((1...2).contains(reader.retryEngine.startCount), "\(reader.retryEngine.started)")
        #expect(reader.retryEngine.held.reduce(0) { $0 + SharedEngine.weight($1) } <= reader.retryEngine.budget)
        // Both workers read the same page alike.
        let texts = results.compactMap { try? $0.get().text }
        #expect(Set(texts).count == 1)
    }
}

/// The shared retry engines: one kept per language set while they fit in the weight of one
/// engine with every language, the least recently used freed to make room.
@Suite struct SharedRetryEngineTests {
    static let installed = TesseractLabelReader.installedLanguages()

    @Test(.enabled(if: installed.contains("deu") && installed.contains("fra") && installed.count >= 5,
                   "needs English, German, French and two more (room for two engines side by side)"))
    func anotherLanguageSetIsKeptBesideTheFirst() throws {
        let reader = try TesseractLabelReader(languages: nil, dataPath: nil, options: PreprocessOptions())
        let shared = reader.retryEngine
        let first = try shared.use(["eng", "deu"]) { $0.languages }
        let french = try shared.use(["eng", "fra"]) { $0.languages }
        let again = try shared.use(["eng", "deu"]) { $0.languages }
        #expect(first == ["eng", "deu"] && again == first && french == ["eng", "fra"])
        // A German page after a French one finds its engine still there (before: started again).
        #expect(shared.started == [["eng", "deu"], ["eng", "fra"]])
        #expect(shared.held == [["eng", "deu"], ["eng", "fra"]])
    }

    @Test(.enabled(if: installed.contains("deu") && installed.count >= 3, "needs English, German and one more"))
    func anAllLanguageEngineFreesTheOthersFirst() throws {
        let reader = try TesseractLabelReader(languages: nil, dataPath: nil, options: PreprocessOptions())
        let shared = reader.retryEngine
        _ = try shared.use(["eng", "deu"]) { $0.languages }
        let all = try shared.use(reader.languages) { $0.languages }
        #expect(all == reader.languages)
        #expect(shared.started == [["eng", "deu"], reader.languages])
        #expect(shared.held == [reader.languages])
    }

    /// Two workers re-read pages in two languages at once: the second does not wait for the
    /// first to finish (before: one engine, one page at a time).
    @Test(.enabled(if: installed.contains("deu") && installed.contains("fra") && installed.count >= 5,
                   "needs English, German, French and two more (room for two engines side by side)"))
    func twoWorkersReReadAtOnce() throws {
        let reader = try TesseractLabelReader(languages: nil, dataPath: nil, options: PreprocessOptions())
        let shared = reader.retryEngine
        let holding = DispatchSemaphore(value: 0), secondDone = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var secondFinishedWhileFirstHeld = false
        Thread {
            try? shared.use(["eng", "deu"]) { _ in
                holding.signal()
                // Held until the other worker is through; the limit only keeps a failure from hanging.
                secondFinishedWhileFirstHeld = secondDone.wait(timeout: .now() + 60) == .success
            }
            finished.signal()
        }.start()
        holding.wait()
        let french = try shared.use(["eng", "fra"]) { $0.languages }
        secondDone.signal()
        finished.wait()
        #expect(french == ["eng", "fra"])
        #expect(secondFinishedWhileFirstHeld)
    }
}

/// A photo's OCR budget is for reading it, not for waiting its turn at the shared retry engine.
@Suite struct SharedRetryBudgetTests {
    /// Found by `scan bench --jobs 2` on the gold set: two heavy photos lost their retries
    /// (one all six of its additives) because the other worker held the retry engine, and the
    /// wait came out of their 8 s budgets. Here another thread holds an engine with every
    /// language, which leaves no room for another beside it; once the photo waits for room, the
    /// reader's clock (which otherwise stands still) jumps an hour, far past the photo's budget,
    /// and the engine is let go. The photo is still re-read and reads as it does alone.
    @Test(.enabled(if: TesseractLabelReader.installedLanguages().count > 1, "needs more than English"))
    func waitingForTheSharedRetryEngineIsNotTakenFromAPhotosBudget() throws {
        let unsure = Fixtures.real("dart_ingredients_coca_light_de.jpg")  // unsure in English: re-read
        let alone = try TesseractLabelReader(languages: nil, dataPath: nil, options: PreprocessOptions(), budgetMs: 600_000)
        let expected = try alone.read(imageAt: unsure)
        let languages = try #require(alone.retryEngine.started.first)  // the languages it is re-read with
        let reader = try TesseractLabelReader(languages: nil, dataPath: nil, options: PreprocessOptions(), budgetMs: 600_000)
        let clock = ManualClock()
        reader.now = { DispatchTime(uptimeNanoseconds: clock.nanoseconds) }
        let holding = DispatchSemaphore(value: 0), waiting = DispatchSemaphore(value: 0)
        let shared = reader.retryEngine, all = reader.languages
        shared.onWait = { waiting.signal() }
        nonisolated(unsafe) var photoWaited = false
        // The other thread holds an engine with every language: no room for another beside it.
        Thread {
            try? shared.use(all) { _ in
                holding.signal()
                // Held until the photo waits for room; the limit only keeps a failure from hanging.
                photoWaited = waiting.wait(timeout: .now() + 600) == .success
                clock.nanoseconds += 3_600_000_000_000
            }
        }.start()
        holding.wait()
        let read = try reader.read(imageAt: unsure)
        #expect(photoWaited, "the photo waited for the shared engine")
        #expect(!read.timedOut)
        #expect(read.text == expected.text)
        #expect(shared.started.last == languages)  // read again, with its own languages, once there was room
    }

    /// A clock that stands still until the test moves it.
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: UInt64 = 1_000_000_000
        var nanoseconds: UInt64 {
            get { lock.lock(); defer { lock.unlock() }; return value }
            set { lock.lock(); value = newValue; lock.unlock() }
        }
    }
}

/// Clutter around a label: blobs that stand alone, against letters in rows.
@Suite struct TextRowsTests {
    typealias Box = (x: Int, y: Int, w: Int, h: Int)

    @Test func lettersInARowStayAndSpecksGo() {
        // A row of five letters, a pair at the end of nothing, and scattered specks.
        let row: [Box] = (0..<5).map { (x: 100 + $0 * 8, y: 50, w: 6, h: 8) }
        let pair: [Box] = [(x: 300, y: 300, w: 6, h: 8), (x: 308, y: 300, w: 6, h: 8)]
        let specks: [Box] = [(x: 10, y: 10, w: 5, h: 7), (x: 500, y: 40, w: 4, h: 9), (x: 200, y: 400, w: 3, h: 20)]
        let kept = TextRegions.inTextRows(row + pair + specks)
        #expect(kept.count == 5)
        #expect(kept.allSatisfy { $0.y == 50 })
    }

    @Test func aRowNeedsLevelLettersOfOneSize() {
        // Staircase (each a full height lower) and alternating giant/small: not rows.
        let stairs: [Box] = (0..<5).map { (x: 100 + $0 * 8, y: 50 + $0 * 8, w: 6, h: 8) }
        let mixed: [Box] = (0..<5).map { (x: 100 + $0 * 30, y: 300, w: 6, h: $0 % 2 == 0 ? 8 : 25) }
        #expect(TextRegions.inTextRows(stairs).isEmpty)
        #expect(TextRegions.inTextRows(mixed).isEmpty)
    }

    /// A frame whose clutter joins everything into one block over most of it: the row
    /// filter finds the label's text block instead of reading the whole frame.
    @Test func clutterThatJoinsTheFrameIsLookedThrough() throws {
        let w = 720, h = 1280
        var bytes = [UInt8](repeating: 0, count: w * h)
        // A busy scene: dark left half, light right half.
        for y in 0..<h { for x in 0..<w { bytes[y * w + x] = x < w / 2 ? 90 : 190 } }
        func fill(_ b: Box, _ v: UInt8) {
            for y in max(0, b.y)..<min(h, b.y + b.h) { for x in max(0, b.x)..<min(w, b.x + b.w) { bytes[y * w + x] = v } }
        }
        var random = SplitMix64(seed: 2026)
        // Specks of any size, dark on the light half and light on the dark half.
        for _ in 0..<1600 {
            let b: Box = (x: Int(random.next() % UInt64(w)), y: Int(random.next() % UInt64(h)),
                          w: 2 + Int(random.next() % 8), h: 3 + Int(random.next() % 22))
            fill(b, b.x < w / 2 ? 170 : 40)
        }
        // The label: paper with 14 rows of small letters.
        let label: Box = (x: 380, y: 560, w: 300, h: 230)
        fill(label, 235)
        for r in 0..<14 {
            for c in 0..<34 { fill((x: label.x + 10 + c * 8, y: label.y + 10 + r * 15, w: 5, h: 7), 30) }
        }
        let pix = try PixImage.gray(bytes, width: w, height: h)
        var plain = TextRegions.Settings()
        plain.lineNeighbours = false
        #expect(TextRegions.find(pix, settings: plain).isEmpty, "without the row filter the frame is one block, read whole")
        let blocks = TextRegions.find(pix)
        let hit = try #require(blocks.first { $0.x <= label.x + 20 && $0.x + $0.width >= label.x + label.w - 20 })
        #expect(hit.y <= label.y + 20 && hit.y + hit.height >= label.y + label.h - 30, "\(blocks)")
        #expect(hit.width * hit.height < 3 * label.w * label.h, "the block stays near the label: \(blocks)")
    }
}
