import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

/// The store saves its parser beside itself (`additives.index`) and loads it in the next
/// process; an image that is stale (another store) or damaged is never used, but rebuilt.
@Suite struct ParserImageStoreTests {
    static let label = "Sugar, colours: Tartrazin, E129, citric acid, tartrazien, FD&C Yellow No. 5"

    static func summary(_ store: AdditiveStore) throws -> [String] {
        try store.parser().parse(label).mentions.map { "\($0.code) \($0.kind) \($0.span)" }
    }

    static func bytes(_ url: URL) -> [UInt8] { Array(FileManager.default.contents(atPath: url.path) ?? Data()) }

    @Test func theParserIsSavedPrivatelyAndLoadedByTheNextOpen() throws {
        let scratch = try Fixtures.Scratch()
        let first = try Fixtures.store(in: scratch)
        let expected = try Self.summary(first)
        #expect(expected.contains { $0.hasPrefix("E102 ") })
        let image = scratch.location.parserImagePath
        var info = stat()
        #expect(stat(image.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let saved = Self.bytes(image)

        // A parser that finds nothing, saved under this store's stamp, is what the next open uses:
        // so the next open really loads the file rather than building.
        let empty = IngredientParser(lexicon: Lexicon(entries: [], knownCodes: []))
        let stamp = try #require(first.imageStamp)
        try Data(ParserImage.encode(empty, stamp: stamp)).write(to: image)
        #expect(try AdditiveStore(location: scratch.location).parser().parse(Self.label).mentions.isEmpty)

        try Data(saved).write(to: image)
        #expect(try Self.summary(AdditiveStore(location: scratch.location)) == expected)
        #expect(Self.bytes(image) == saved)
    }

    /// A byte changed at the given fraction of the file: in the header, the index tables, the end.
    @Test(arguments: [0.01, 0.3, 0.55, 0.999])
    func aDamagedImageIsRebuiltAndParsesTheSame(at fraction: Double) throws {
        let scratch = try Fixtures.Scratch()
        let expected = try Self.summary(Fixtures.store(in: scratch))
        let image = scratch.location.parserImagePath
        let saved = Self.bytes(image)
        var damaged = saved
        damaged[Int(Double(damaged.count - 1) * fraction)] ^= 0x5A
        try Data(damaged).write(to: image)

        #expect(try Self.summary(AdditiveStore(location: scratch.location)) == expected)
        #expect(Self.bytes(image) == saved, "the damaged image was replaced by a good one")
    }

    @Test func anImageOfAnOlderStoreIsRebuiltAfterARebuildOrInstall() throws {
        let scratch = try Fixtures.Scratch()
        let first = try Fixtures.store(in: scratch)
        let expected = try Self.summary(first)
        // A valid image of the store as it is now, but of a parser that finds nothing.
        let empty = IngredientParser(lexicon: Lexicon(entries: [], knownCodes: []))
        let firstStamp = try #require(first.imageStamp)
        try Data(ParserImage.encode(empty, stamp: firstStamp)).write(to: scratch.location.parserImagePath)

        try AdditiveStore.rebuild(location: scratch.location, basePackURL: Fixtures.builtPack(in: scratch))
        let rebuilt = try AdditiveStore(location: scratch.location)
        #expect(rebuilt.imageStamp != first.imageStamp)
        #expect(try Self.summary(rebuilt) == expected)
        let stamp = try #require(rebuilt.imageStamp)
        let reloaded = try #require(ParserImage.decode(Self.bytes(scratch.location.parserImagePath), stamp: stamp))
        #expect(reloaded.parse(Self.label).mentions.map { "\($0.code) \($0.kind) \($0.span)" } == expected)
    }
}
