import Foundation
import Testing

/// The regenerable parser image (`additives.index`) goes to `$XDG_CACHE_HOME/ecodex` when no
/// data folder is named, and beside the store when the cache folder cannot be made.
@Suite struct CacheFolderTests {
    /// The environment of a run that uses the XDG folders rather than a named data folder.
    static func xdg(_ scan: ScanBinary, cache: String) -> [String: String] {
        ["ECODEX_DATA_DIR": "", "XDG_DATA_HOME": scan.dataDir.appendingPathComponent("data").path, "XDG_CACHE_HOME": cache]
    }

    @Test func aScanSavesTheParserImageInTheCacheFolder() throws {
        let scan = ScanBinary()
        let cache = scan.dataDir.appendingPathComponent("cache")
        let run = try scan.run(["text", "Sugar, E330", "--format", "json"], environment: Self.xdg(scan, cache: cache.path))
        #expect(run.status == 0, "\(run.stderr)")
        #expect((run.jsonLines().first?["additives"] as? [[String: Any]])?.first?["code"] as? String == "E330")
        let image = cache.appendingPathComponent("ecodex/additives.index").path
        let data = scan.dataDir.appendingPathComponent("data/ecodex")
        #expect(FileManager.default.fileExists(atPath: image), "no image in the cache folder")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("additives.index").path))
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("additives.sqlite").path))
        let mode = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1 }
        #expect(mode(image) == 0o600 && mode(cache.appendingPathComponent("ecodex").path) == 0o700)
        // The next run maps the saved image and answers the same.
        let again = try scan.run(["text", "Sugar, E330", "--format", "json"], environment: Self.xdg(scan, cache: cache.path))
        #expect(again.status == 0 && again.jsonLines().first?["summary"] as? [String: Int] == run.jsonLines().first?["summary"] as? [String: Int])
    }

    /// A cache folder that cannot be made (its parent is a file) leaves the image beside the store.
    @Test func anUnwritableCacheFolderFallsBackToTheDataFolder() throws {
        let scan = ScanBinary()
        let blocker = scan.dataDir.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let run = try scan.run(["text", "Sugar, E330", "--format", "json"],
                               environment: Self.xdg(scan, cache: blocker.appendingPathComponent("cache").path))
        #expect(run.status == 0, "\(run.stderr)")
        #expect((run.jsonLines().first?["additives"] as? [[String: Any]])?.first?["code"] as? String == "E330")
        #expect(FileManager.default.fileExists(atPath: scan.dataDir.appendingPathComponent("data/ecodex/additives.index").path))
    }
}
