@testable import EcodexCore
import Foundation
import Testing

/// A saved parser parses exactly like the one it was saved from, and an image that is
/// stale or damaged is refused (the caller then builds the index again).
@Suite struct ParserImageTests {
    static let texts = ParsingFixtureLexicon.jsonLines("ingredient-texts.jsonl").compactMap { $0["text"] as? String }
        + ["Sugar, colours: E102, E129, citric acid", "Farbstoffe: Tartrazin, Zitronensäure; tartrazien", "E 160a(ii), INS 240,241"]
    static let original = ParsingTestSupport.parser
    static let stamp = "pack 1; data 1"
    static let image = ParserImage.encode(original, stamp: stamp)

    /// Codes, kinds, spans and functions of every mention: what a parse result says.
    static func summary(_ p: IngredientParser, _ text: String) -> [String] {
        p.parse(text).mentions.map { "\($0.code) \($0.kind) \($0.span) \($0.function ?? "-") \($0.confidence)" }
    }

    /// Where section `s` of the image's payload starts, in the image.
    static func sectionOffset(_ image: [UInt8], _ s: NameTables.Section) -> Int {
        let stampLength = Int(image.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 24, as: UInt32.self) })
        let payload = ParserImage.headerSize + ((stampLength + 7) & ~7)
        let offset = image.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: payload + s.rawValue * 16, as: UInt64.self) }
        return payload + Int(offset)
    }

    /// The image with its checksum made right again after a change.
    static func resealed(_ image: [UInt8]) -> [UInt8] {
        var out = image
        let sum = image.withUnsafeBytes { ParserImage.checksum(UnsafeRawBufferPointer(rebasing: $0[ParserImage.headerSize...])) }
        withUnsafeBytes(of: sum.littleEndian) { out.replaceSubrange(40..<48, with: $0) }
        return out
    }

    @Test func aLoadedImageParsesLikeTheBuiltIndex() throws {
        let loaded = try #require(ParserImage.decode(Self.image, stamp: Self.stamp))
        #expect(loaded.knownCodes == Self.original.knownCodes)
        #expect(loaded.functions == Self.original.functions)
        #expect(Self.texts.count > 300)
        for text in Self.texts {
            #expect(Self.summary(loaded, text) == Self.summary(Self.original, text), "\(text)")
        }
        // Encoding is deterministic: the loaded parser saves to the same bytes.
        let same = ParserImage.encode(loaded, stamp: Self.stamp) == Self.image  // a Bool: no diff of megabytes
        #expect(same)
    }

    @Test func aMappedFileParsesLikeTheBuiltIndexAndOutlivesItsFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-image-\(UUID().uuidString)")
        try Data(Self.image).write(to: url)
        let loaded = try #require(ParserImage.load(path: url.path, stamp: Self.stamp))
        // The writers rename a new file over the old one; a mapping keeps reading the old.
        try FileManager.default.removeItem(at: url)
        for text in Self.texts.prefix(50) {
            #expect(Self.summary(loaded, text) == Self.summary(Self.original, text), "\(text)")
        }
        #expect(ParserImage.load(path: url.path, stamp: Self.stamp) == nil)
    }

    @Test func anImageOfAnotherStoreIsStale() {
        #expect(ParserImage.decode(Self.image, stamp: Self.stamp) != nil)
        #expect(ParserImage.decode(Self.image, stamp: "pack 2; data 1") == nil)
        #expect(ParserImage.decode(Self.image, stamp: "pack 1; data 2") == nil)
        #expect(ParserImage.decode(Self.image, stamp: "") == nil)
    }

    @Test func anImageFromAnotherFormatOrProgramIsRefused() {
        var format = Self.image
        format[ParserImage.magic.count] &+= 1  // the format version's low byte
        #expect(ParserImage.decode(Self.resealed(format), stamp: Self.stamp) == nil)
        var program = Self.image
        program[16] ^= 1  // the fingerprint of the program and its compiled-in tables
        #expect(ParserImage.decode(Self.resealed(program), stamp: Self.stamp) == nil)
    }

    /// Any changed byte, seeded so a failure repeats: the checksum or a bounds check refuses it.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func aDamagedImageIsRefused(seed: UInt64) {
        var rng = SplitMix64(seed: seed)  // the gold set's own seeded generator
        var damaged = Self.image
        let at = Int(rng.next() % UInt64(damaged.count))
        damaged[at] ^= UInt8(truncatingIfNeeded: rng.next() % 255 + 1)
        #expect(ParserImage.decode(damaged, stamp: Self.stamp) == nil, "byte \(at) of \(damaged.count)")
    }

    @Test func aTruncatedOrLongerImageIsRefused() {
        for length in [0, 7, 40, 48, Self.image.count / 2, Self.image.count - 8, Self.image.count - 1] {
            #expect(ParserImage.decode(Array(Self.image.prefix(length)), stamp: Self.stamp) == nil, "\(length)")
        }
        #expect(ParserImage.decode(Self.image + [0], stamp: Self.stamp) == nil)
        #expect(ParserImage.decode(Self.image + [UInt8](repeating: 0, count: 8), stamp: Self.stamp) == nil)
    }

    /// Damage whose checksum was made right again is still refused when a table points outside
    /// the table it indexes, or a section outside the file: lookups read the mapping unchecked.
    @Test func anIndexOutOfRangeIsRefusedEvenWithAGoodChecksum() {
        #expect(ParserImage.decode(Self.resealed(Self.image), stamp: Self.stamp) != nil)
        for (section, value) in [(NameTables.Section.deletionWord, Int32.max), (.terminal, Int32(1 << 30)),
                                 (.vocabValues, -5), (.wordStart, Int32.max), (.longWords, -1),
                                 (.targetCode, Int32(100_000))] {
            var image = Self.image
            let at = Self.sectionOffset(image, section)
            withUnsafeBytes(of: value.littleEndian) { image.replaceSubrange(at..<at + 4, with: $0) }
            #expect(ParserImage.decode(Self.resealed(image), stamp: Self.stamp) == nil, "\(section)")
        }
        // A section directory entry past the end of the file.
        var image = Self.image
        // The first section starts right after the directory.
        let directory = Self.sectionOffset(image, .vocabKeys) - NameTables.Section.allCases.count * 16
        withUnsafeBytes(of: UInt64(1 << 40).littleEndian) { image.replaceSubrange(directory + 8..<directory + 16, with: $0) }
        #expect(ParserImage.decode(Self.resealed(image), stamp: Self.stamp) == nil)
    }
}
