import Foundation
import Testing

/// The end-to-end helpers clean up after themselves: before session 21 every full run left
/// about 150 data folders (4 MB each, with their store) in the temporary directory.
@Suite("Test helpers leave nothing behind")
struct TestHygieneTests {
    @Test("A scan's data folder is removed when the test lets go of it")
    func scanDataFolderIsRemoved() throws {
        var folder: URL?
        do {
            let scan = ScanBinary()
            folder = scan.dataDir
            let run = try scan.run(["code", "E330"])
            #expect(run.status == 0)
            #expect(FileManager.default.fileExists(atPath: scan.dataDir.appendingPathComponent("additives.sqlite").path))
        }
        let gone = try #require(folder)
        #expect(!FileManager.default.fileExists(atPath: gone.path))
    }
}
