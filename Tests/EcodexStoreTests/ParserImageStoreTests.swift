import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

/// The store saves its parser beside itself (`additives.index`) whenever a build, an install
/// or a rollback puts a new store in place, and maps it in the next process. An image that is
/// stale (another store, another version) or damaged (changed bytes, cut short) is never used:
/// the parser is built from the names and the image saved again.
@Suite struct ParserImageStoreTests {
    typealias F = PackInstallFixture
    static let label = "Sugar, colours: Tartrazin, E129, citric acid, tartrazien, FD&C Yellow No. 5"

    static func summary(_ parser: IngredientParser) -> [String] {
        parser.parse(label).mentions.map { "\($0.code) \($0.kind) \($0.span)" }
    }

    static func summary(_ store: AdditiveStore) throws -> [String] { summary(try store.parser()) }

    static func bytes(_ url: URL) -> [UInt8] { Array(FileManager.default.contents(atPath: url.path) ?? Data()) }

    /// A valid image that finds nothing: if a store's parser finds nothing, it used this image.
    static func decoy(stamp: String) -> Data {
        Data(ParserImage.encode(IngredientParser(lexicon: Lexicon(entries: [], knownCodes: [])), stamp: stamp))
    }

    /// The image on disk, read with the stamp of the store now in place.
    static func savedParser(_ location: StoreLocation) throws -> IngredientParser? {
        let stamp = try #require(try AdditiveStore(location: location).imageStamp)
        return ParserImage.load(path: location.parserImagePath.path, stamp: stamp)
    }

    @Test func theImageIsSavedPrivatelyWithTheStoreAndMappedByTheNextOpen() throws {
        let scratch = try Fixtures.Scratch()
        let first = try Fixtures.store(in: scratch)
        let image = scratch.location.parserImagePath
        // Saved by the build itself, before any parse.
        var info = stat()
        #expect(stat(image.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let expected = try Self.summary(first)
        #expect(expected.contains { $0.hasPrefix("E102 ") })
        #expect(try Self.savedParser(scratch.location).map(Self.summary) == expected)

        // A decoy saved under this store's stamp is what the next open uses: it maps the file.
        let saved = Self.bytes(image)
        try Self.decoy(stamp: try #require(first.imageStamp)).write(to: image)
        #expect(try AdditiveStore(location: scratch.location).parser().parse(Self.label).mentions.isEmpty)
        try Data(saved).write(to: image)
        #expect(try Self.summary(AdditiveStore(location: scratch.location)) == expected)
        let kept = Self.bytes(image) == saved  // a Bool: swift-testing would diff megabytes
        #expect(kept)
    }

    /// A decoy with this store's stamp, damaged: one byte changed (header, stamp, tables, end)
    /// or cut short. Never used; replaced by a good image.
    @Test(arguments: [-1, -2, 0.01, 0.1, 0.5, 0.999])
    func aDamagedImageIsRebuiltNotUsed(at fraction: Double) throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let expected = try Self.summary(store)
        let image = scratch.location.parserImagePath
        let good = Self.bytes(image)
        var damaged = [UInt8](try Self.decoy(stamp: try #require(store.imageStamp)))
        if fraction == -1 {
            damaged.removeLast(damaged.count / 3)  // truncated
        } else if fraction == -2 {
            damaged.removeLast(1)
        } else {
            damaged[Int(Double(damaged.count - 1) * fraction)] ^= 0x5A
        }
        try Data(damaged).write(to: image)

        #expect(try Self.summary(AdditiveStore(location: scratch.location)) == expected)
        let replaced = Self.bytes(image) == good  // a Bool: swift-testing would diff megabytes
        #expect(replaced, "the damaged image was replaced by a good one")
    }

    @Test func anImageOfAnotherVersionOrStoreFileIsRebuiltNotUsed() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        let expected = try Self.summary(store)
        let stamp = try #require(store.imageStamp)
        #expect(stamp.contains("pack \(store.versions.packVersion);") && stamp.contains("data \(store.versions.dataVersion);"))
        for stale in [stamp.replacingOccurrences(of: "pack \(store.versions.packVersion);", with: "pack 0.0.1;"),
                      stamp.replacingOccurrences(of: "data \(store.versions.dataVersion);", with: "data old;"),
                      stamp + "0"] {
            #expect(stale != stamp)
            try Self.decoy(stamp: stale).write(to: scratch.location.parserImagePath)
            #expect(try Self.summary(AdditiveStore(location: scratch.location)) == expected, "\(stale)")
            #expect(try Self.savedParser(scratch.location).map(Self.summary) == expected)
        }
    }

    @Test func aRebuildReplacesTheImage() throws {
        let scratch = try Fixtures.Scratch()
        let first = try Fixtures.store(in: scratch)
        let expected = try Self.summary(first)
        try Self.decoy(stamp: try #require(first.imageStamp)).write(to: scratch.location.parserImagePath)

        try AdditiveStore.rebuild(location: scratch.location, basePackURL: Fixtures.builtPack(in: scratch))
        let rebuilt = try AdditiveStore(location: scratch.location)
        #expect(rebuilt.imageStamp != first.imageStamp)
        // Saved by the rebuild, not by this open.
        #expect(try Self.savedParser(scratch.location).map(Self.summary) == expected)
        #expect(try Self.summary(rebuilt) == expected)
    }

    /// Installing a pack (full or delta) and rolling back each save the image of the store they
    /// put in place, with its names: the new name is found after the install, not after the rollback.
    @Test func applyAndRollbackSaveTheImageOfTheNewStore() throws {
        let s = try PackInstallTests.Setup()
        let next = F.changed(s.base, version: "1.1.0")
        let label = "preservative: sodium benzoate"
        func found(_ p: IngredientParser?) -> [String] { p?.parse(label).mentions.map(\.code.description) ?? ["no image"] }
        #expect(found(try Self.savedParser(s.scratch.location)) == [])

        try s.installer.apply(F.delta(from: s.base, to: next), source: "test")
        #expect(try AdditiveStore(location: s.scratch.location).versions.packVersion == "1.1.0")
        #expect(found(try Self.savedParser(s.scratch.location)) == ["E211"])

        _ = try s.installer.rollback()
        #expect(found(try Self.savedParser(s.scratch.location)) == [])

        try s.installer.apply(F.full(next), source: "test")
        #expect(found(try Self.savedParser(s.scratch.location)) == ["E211"])
    }
}
