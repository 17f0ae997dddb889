import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

/// The additive store built from the bundled base pack stays small (issue 13: at most 3 MB),
/// and a store of the older layout is brought to the current one from its own records.
@Suite struct StoreSizeTests {
    /// 3 MB in decimal bytes, the stricter reading.
    static let limit = 3_000_000

    @Test func theStoreBuiltFromTheBundledPackIsAtMost3MB() throws {
        let scratch = try Fixtures.Scratch()
        try AdditiveStore.rebuild(location: scratch.location)
        let path = scratch.location.additivesPath
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path.path)[.size] as? NSNumber).intValue
        #expect(size <= Self.limit, "additives.sqlite is \(size) bytes: \(Self.tableSizes(path))")
        // The bundled pack really is in it: a small file because it is empty would pass the size check.
        let store = try AdditiveStore(location: scratch.location)
        #expect(try store.allAdditives().count >= 600)
        #expect(try store.lexicon().entries.count >= 20_000)
        #expect(try store.search("tartrazien").first?.code == ECode("E102"))
    }

    /// Bytes per table and index, largest first (SQLite's dbstat), to say what grew.
    static func tableSizes(_ path: URL) -> String {
        guard let db = try? Connection(path: path.path, mode: .readOnly) else { return "?" }
        var out: [String] = []
        try? db.prepare("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").forEachRow {
            out.append("\($0.text(0)) \($0.int64(1))")
        }
        return out.joined(separator: ", ")
    }

    /// The layout of schema version 1 (records as JSON text), as Ecodex wrote it before.
    static let version1Schema = """
        CREATE TABLE meta (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE additives (
            code TEXT NOT NULL PRIMARY KEY, number INTEGER NOT NULL, parent TEXT, canonical_name TEXT NOT NULL,
            classes TEXT NOT NULL, evidence_level TEXT NOT NULL, label_frequency INTEGER NOT NULL DEFAULT 0,
            record TEXT NOT NULL CHECK (json_valid(record))
        ) WITHOUT ROWID;
        CREATE TABLE names (
            id INTEGER PRIMARY KEY, key TEXT NOT NULL, name TEXT NOT NULL, code TEXT NOT NULL, lang TEXT NOT NULL,
            context_only INTEGER NOT NULL DEFAULT 0, kind TEXT NOT NULL, UNIQUE (code, lang, name)
        );
        CREATE INDEX names_key ON names (key, kind, code);
        CREATE VIRTUAL TABLE names_fts USING fts5 (
            key, content = 'names', content_rowid = 'id', tokenize = 'trigram', columnsize = 0
        );
        PRAGMA user_version = 1;
        """

    @Test func aVersion1StoreIsRebuiltFromItsOwnRecordsAndKeepsItsMetadata() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        // An installed update in the old layout: its data differs from the base pack.
        var pack = try Fixtures.pack()
        pack.version = "1.2.0"
        pack.dataVersion = "2026.12.01-update"
        let i = try #require(pack.additives.firstIndex { $0.code.description == "E330" })
        pack.additives[i].names["en"] = ["Citric acid", "Sour salt"]
        try FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
        do {
            let db = try Connection(path: location.additivesPath.path, mode: .create)
            try db.execute(Self.version1Schema)
            let meta = try db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)")
            for (key, value) in [("schema_version", "1"), ("pack_version", pack.version), ("data_version", pack.dataVersion),
                                 ("regions", pack.regions.map(\.rawValue).joined(separator: ",")),
                                 ("built_at", "2026-12-01T10:00:00Z"), ("installed_from", "https://example.org/1.2.0.pack")] {
                try meta.run([.text(key), .text(value)])
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let insert = try db.prepare("""
                INSERT INTO additives (code, number, canonical_name, classes, evidence_level, record) VALUES (?, ?, ?, '', ?, ?)
                """)
            for a in pack.additives {
                try insert.run([.text(a.code.description), .int(Int64(a.code.number)), .text(a.canonicalName),
                                .text(a.evidenceLevel.rawValue), .text(String(decoding: try encoder.encode(a), as: UTF8.self))])
            }
        }

        let store = try AdditiveStore(location: location, basePackURL: try Fixtures.builtPack(in: scratch))
        #expect(try Connection(path: location.additivesPath.path, mode: .readOnly).userVersion() == AdditiveSchema.version)
        #expect(store.versions == DataVersions(dataVersion: "2026.12.01-update", packVersion: "1.2.0"))
        #expect(store.builtAt == "2026-12-01T10:00:00Z")
        #expect(try AdditiveStore.meta(location.additivesPath)["installed_from"] == "https://example.org/1.2.0.pack")
        #expect(try store.allAdditives() == pack.additives.sorted { ($0.code.number, $0.code.description) < ($1.code.number, $1.code.description) })
        #expect(try store.lookup(name: "sour salt").first?.code == ECode("E330"))
        #expect(try store.search("tartrazien").first?.code == ECode("E102"))
        #expect(try store.children(of: ECode("E160a")!).map(\.code.description) == ["E160a(ii)"])
        #expect(store.integrityCheck())
    }
}

@Suite struct RecordCodecTests {
    @Test func aPrimedCompressorWritesTheSameBytesAndTheyRoundTrip() throws {
        let records = (0..<20).map { i in Array(#"{"code":"E\#(100 + i)","names":{"en":["Colour \#(i)"]},"region_rules":{}}"#.utf8) }
        let codec = RecordCodec(dictionary: RecordCodec.dictionary(from: records))
        #expect(codec.dictionary.count <= RecordCodec.maximumDictionaryBytes)
        let compressor = try RecordCodec.Compressor(codec)
        for record in records {
            let packed = try compressor.compress(record)
            #expect(packed == (try codec.compress(record)))
            #expect(try codec.decompress(packed) == record)
        }
        // Another store's dictionary does not read it: the zlib header names the dictionary.
        let other = RecordCodec(dictionary: Array("something else entirely".utf8))
        #expect(throws: RecordCodec.Failure.self) { try other.decompress(try compressor.compress(records[0])) }
        // A record larger than the first guess at its size still comes back whole.
        let big = Array(String(repeating: "{\"a\":1}", count: 20_000).utf8)
        #expect(try codec.decompress(try compressor.compress(big)) == big)
    }
}
