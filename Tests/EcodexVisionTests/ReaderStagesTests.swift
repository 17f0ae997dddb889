import EcodexCore
import Testing
@testable import EcodexVision

/// The reader's two stages: `prepare` plans and preprocesses, `recognize` executes the plan.
@Suite struct ReaderStagesTests {
    /// The stages one after the other read what `read(imageAt:)` reads, and the prepared photo
    /// carries its plan: a small crop is read whole with the first-pass engine.
    @Test func stagesReadWhatAWholeReadingReads() throws {
        let path = Fixtures.real("irockel_image-5.jpg")
        let staged = try TesseractLabelReader(languages: ["eng"])
        let photo = try staged.prepare(imageAt: path)
        let prepared = try #require(photo as? PreparedLabelPhoto)
        #expect(prepared.plan.kind == .crop)
        #expect(prepared.plan.engine == .firstPass)
        #expect(prepared.pieces.count == 1)
        let twoStages = try staged.recognize(photo)
        let whole = try TesseractLabelReader(languages: ["eng"]).read(imageAt: path)
        #expect(twoStages.text == whole.text)
        #expect(twoStages.steps == whole.steps)
        #expect(twoStages.printHeight == whole.printHeight)
    }

    /// A photo another reader prepared is read whole by this one, on its own engines.
    @Test func aPhotoFromAnotherReaderIsReadWhole() throws {
        let path = Fixtures.real("irockel_image-5.jpg")
        let other = try TesseractLabelReader(languages: ["eng"])
        let photo = try other.prepare(imageAt: path)
        let reader = try TesseractLabelReader(languages: ["eng"])
        #expect(try reader.recognize(photo).text.contains("Red 40"))
        #expect(reader.enginesStarted == ["eng at header"])
        #expect(try reader.recognize(PhotoToRead(path: path)).text.contains("Red 40"))
    }

    /// A photo that cannot be decoded fails in `prepare`, as a capture error.
    @Test func aMissingPhotoFailsToPrepare() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        let error = #expect(throws: (any Error).self) { try reader.prepare(imageAt: "/nonexistent/label.jpg") }
        #expect((error as? any ClassifiedError)?.errorClass == .capture)
    }
}
