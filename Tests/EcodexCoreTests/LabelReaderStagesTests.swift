import Foundation
import Testing
@testable import EcodexCore

/// Preprocessing and recognition are two stages of `LabelReader` that the pipeline calls in turn.
@Suite struct LabelReaderStagesTests {
    /// A reader with stages of its own, recording the calls it gets.
    final class StagedReader: LabelReader {
        final class Prepared: PreparedPhoto {
            let path: String
            init(_ path: String) { self.path = path }
        }
        var calls: [String] = []
        func read(imageAt path: String) throws -> OCRResult {
            calls.append("read \(path)")
            return OCRResult(words: [], steps: [], preprocessMs: 0, ocrMs: 0)
        }
        func prepare(imageAt path: String) throws -> any PreparedPhoto {
            calls.append("prepare \(path)")
            return Prepared(path)
        }
        func recognize(_ photo: any PreparedPhoto) throws -> OCRResult {
            calls.append("recognize \(photo.path)")
            let word = OCRWord(text: "E330", confidence: 90, box: BoundingBox(x: 0, y: 0, width: 10, height: 10), line: 0)
            return OCRResult(words: [word], steps: ["prepared"], preprocessMs: 1, ocrMs: 2)
        }
    }

    @Test func thePipelinePreparesThenRecognises() throws {
        let reader = StagedReader()
        let pipeline = try ScanPipeline(catalog: TestRecords.catalog, reader: reader)
        let report = try pipeline.scan(.image(path: "label.jpg"), options: ScanOptions())
        #expect(reader.calls == ["prepare label.jpg", "recognize label.jpg"])
        #expect(report.additives.map(\.code.description) == ["E330"])
    }

    /// A reader with only `read(imageAt:)` still works: its photo is read whole in `recognize`.
    @Test func aReaderWithoutStagesReadsInRecognize() throws {
        let reader = FakeReader("E330")
        let photo = try reader.prepare(imageAt: "label.jpg")
        #expect(photo.path == "label.jpg")
        #expect(try reader.recognize(photo).text == "E330")
    }
}
