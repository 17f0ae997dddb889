@testable import EcodexCore
import Testing

/// A saved parser parses exactly like the one it was saved from, and an image that is
/// stale or damaged is refused (the caller then builds the index again).
@Suite struct ParserImageTests {
    static let texts = ParsingFixtureLexicon.jsonLines("ingredient-texts.jsonl").compactMap { $0["text"] as? String }
        + ["Sugar, colours: E102, E129, citric acid", "Farbstoffe: Tartrazin, Zitronensäure; tartrazien", "E 160a(ii), INS 240,241"]
    static let original = ParsingTestSupport.parser
    static let image = ParserImage.encode(original, stamp: "pack 1; data 1")

    /// Codes, kinds, spans and functions of every mention: what a parse result says.
    static func summary(_ p: IngredientParser, _ text: String) -> [String] {
        p.parse(text).mentions.map { "\($0.code) \($0.kind) \($0.span) \($0.function ?? "-") \($0.confidence)" }
    }

    @Test func aLoadedImageParsesLikeTheBuiltIndex() throws {
        let loaded = try #require(ParserImage.decode(Self.image, stamp: "pack 1; data 1"))
        #expect(loaded.knownCodes == Self.original.knownCodes)
        #expect(loaded.functions == Self.original.functions)
        #expect(Self.texts.count > 300)
        for text in Self.texts {
            #expect(Self.summary(loaded, text) == Self.summary(Self.original, text), "\(text)")
        }
        // Encoding is deterministic: the loaded parser saves to the same bytes.
        #expect(ParserImage.encode(loaded, stamp: "pack 1; data 1") == Self.image)
    }

    @Test func anImageOfAnotherStoreIsStale() {
        #expect(ParserImage.decode(Self.image, stamp: "pack 2; data 1") == nil)
        #expect(ParserImage.decode(Self.image, stamp: "") == nil)
    }

    @Test func anImageFromAnotherFormatIsRefused() {
        var other = Self.image
        other[ParserImage.magic.count] &+= 1 // the format version's low byte
        #expect(ParserImage.decode(other, stamp: "pack 1; data 1") == nil)
    }

    /// Any changed byte, seeded so a failure repeats: the checksum or a bounds check refuses it.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func aDamagedImageIsRefused(seed: UInt64) {
        var rng = SplitMix64(seed: seed) // the gold set's own seeded generator
        var damaged = Self.image
        let at = Int(rng.next() % UInt64(damaged.count))
        damaged[at] ^= UInt8(truncatingIfNeeded: rng.next() % 255 + 1)
        #expect(ParserImage.decode(damaged, stamp: "pack 1; data 1") == nil, "byte \(at) of \(damaged.count)")
    }

    @Test func aTruncatedOrEmptyImageIsRefused() {
        for length in [0, 7, 40, Self.image.count / 2, Self.image.count - 1] {
            #expect(ParserImage.decode(Array(Self.image.prefix(length)), stamp: "pack 1; data 1") == nil, "\(length)")
        }
        #expect(ParserImage.decode(Self.image + [0], stamp: "pack 1; data 1") == nil)
    }

    /// A damaged body whose checksum was fixed up is still refused when it points outside a table.
    @Test func anIndexOutOfRangeIsRefusedEvenWithAGoodChecksum() {
        var r = ByteReader(Self.image[...])
        _ = r.raw(ParserImage.magic.count); _ = r.uint32(); _ = r.uint64(); _ = r.strings(); _ = r.uint64(); _ = r.uint64()
        let bodyStart = Self.image.count - r.remaining
        // The last Int32 of the body's index tables is the last `deletionNext`, which may only point back.
        var body = Array(Self.image[bodyStart...])
        var p = ByteReader(body[...])
        let codes = CodeTable.read(from: &p)!
        #expect(NameIndex(reading: &p, codes: codes) != nil)
        let indexEnd = body.count - p.remaining
        withUnsafeBytes(of: Int32(Int32.max).littleEndian) { body.replaceSubrange(indexEnd - 4..<indexEnd, with: $0) }
        var image = Array(Self.image[..<bodyStart]) + body
        let sum = ParserImage.checksum(body[...])
        withUnsafeBytes(of: sum.littleEndian) { image.replaceSubrange(bodyStart - 8..<bodyStart, with: $0) }
        #expect(ParserImage.decode(image, stamp: "pack 1; data 1") == nil)
    }
}
