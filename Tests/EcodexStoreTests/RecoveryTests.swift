import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

/// Damaged, truncated and read-only store files, and recovery by rebuild.
@Suite struct RecoveryTests {
    enum Damage: String, CaseIterable {
        case randomBytes, truncated, empty, foreignDatabase, missingTables
    }

    private func damage(_ path: URL, _ kind: Damage) throws {
        switch kind {
        case .randomBytes:
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: path)
        case .truncated:
            let data = try Data(contentsOf: path)
            try data.prefix(data.count / 2).write(to: path)
        case .empty:
            try Data().write(to: path)
        case .foreignDatabase:
            try FileManager.default.removeItem(at: path)
            let db = try Connection(path: path.path, mode: .create)
            try db.execute("CREATE TABLE notes (text TEXT)")
        case .missingTables:
            // The right version number but not the schema it promises.
            try Connection(path: path.path, mode: .readWrite).execute("DROP TABLE meta")
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedStoreIsALookupErrorAndRebuildRecoversIt(kind: Damage) throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        let packURL = try Fixtures.builtPack(in: scratch)
        _ = try AdditiveStore(location: location, basePackURL: packURL)
        // The user has history that must survive the rebuild.
        let user = try UserStore(location: location)
        let report = ScanReport(input: "/home/ann/label.jpg", region: .eu,
                                versions: DataVersions(dataVersion: "d", packVersion: "p"))
        let id = try user.recordScan(report)

        try damage(location.additivesPath, kind)
        let error = #expect(throws: StoreError.self) {
            let store = try AdditiveStore(location: location, basePackURL: packURL)
            // Some damage only shows when a query reaches the bad pages.
            _ = try store.allAdditives()
        }
        #expect(error?.errorClass == .lookup)
        #expect(["damaged", "readFailed"].contains(caseName(error)), "\(String(describing: error))")

        try AdditiveStore.rebuild(location: location, basePackURL: packURL)
        let store = try AdditiveStore(location: location, basePackURL: packURL)
        #expect(try store.additive(code: ECode("E120")!)?.canonicalName == "Carmine")
        #expect(store.integrityCheck())
        #expect(try UserStore(location: location).historyEntry(id: id)?.input == "label.jpg")
    }

    @Test func damageFoundAfterOpeningIsALookupErrorToo() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        let store = try Fixtures.store(in: scratch)
        // Overwrite the pages after the header while the store is open.
        let handle = try FileHandle(forWritingTo: location.additivesPath)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 4096))
        try handle.close()
        let error = #expect(throws: StoreError.self) {
            _ = try store.allAdditives()
            _ = try store.search("tartrazine")
        }
        #expect(error?.errorClass == .lookup)
        #expect(!store.integrityCheck())
    }

    /// A changed byte inside a compressed record leaves every page sound: the record's
    /// own checksum finds it when the record is read.
    @Test func aRecordDamagedInsideItsCompressedBytesIsALookupError() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        _ = try Fixtures.store(in: scratch)
        do {
            let db = try Connection(path: location.additivesPath.path, mode: .readWrite)
            let read = try db.prepare("SELECT record FROM additives WHERE code = 'E102'")
            #expect(try read.step())
            var bytes = read.blob(0)
            read.reset()
            bytes[bytes.count / 2] ^= 0x5A
            try db.prepare("UPDATE additives SET record = ? WHERE code = 'E102'").run([.blob(bytes)])
        }
        let store = try Fixtures.store(in: scratch)
        let error = #expect(throws: StoreError.self) { try store.additive(code: ECode("E102")!) }
        #expect(error?.errorClass == .lookup)
        #expect(["damaged", "readFailed"].contains(caseName(error)), "\(String(describing: error))")
        #expect(try store.additive(code: ECode("E330")!)?.canonicalName == "Citric acid")
    }

    /// `names.code` is not a foreign key (see AdditiveSchema): the check finds names left without their record.
    @Test func theCheckFindsNamesWithoutTheirRecord() throws {
        let scratch = try Fixtures.Scratch()
        let store = try Fixtures.store(in: scratch)
        #expect(store.integrityCheck())
        try Connection(path: scratch.location.additivesPath.path, mode: .readWrite).execute("DELETE FROM additives WHERE code = 'E951'")
        #expect(!store.integrityCheck())
    }

    @Test func aStoreFromANewerVersionSaysSo() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        _ = try Fixtures.store(in: scratch)
        try Connection(path: location.additivesPath.path, mode: .readWrite).setUserVersion(AdditiveSchema.version + 1)
        let error = #expect(throws: StoreError.self) { try Fixtures.store(in: scratch) }
        #expect(caseName(error) == "newerSchema", "\(String(describing: error))")
    }

    @Test func anOlderStoreIsMigratedInPlace() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        _ = try Fixtures.store(in: scratch)
        // A future schema step, applied to a store built at today's version.
        let next = AdditiveSchema.migrations + [
            Migration(version: AdditiveSchema.version + 1, sql: "CREATE INDEX additives_frequency ON additives (label_frequency)"),
        ]
        let db = try AdditiveStore.openChecked(location.additivesPath, migrations: next)
        #expect(try db.userVersion() == AdditiveSchema.version + 1)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'additives_frequency'") == 1)
        #expect(try db.scalarInt("SELECT count(*) FROM additives") == Int64(Fixtures.records.count))
    }

    @Test func aReadOnlyStoreFileStillAnswersLookups() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        _ = try Fixtures.store(in: scratch)
        chmod(location.additivesPath.path, 0o444)
        chmod(location.directory.path, 0o555)
        let store = try AdditiveStore(location: location, basePackURL: try Fixtures.builtPack(in: scratch))
        #expect(try store.search("tartrazien").first?.code == ECode("E102"))
        #expect(store.integrityCheck())
    }

    @Test func aFolderThatCannotBeCreatedIsALookupErrorThatSaysSo() throws {
        let scratch = try Fixtures.Scratch()
        // A data folder "inside" a regular file cannot exist, even for root.
        let file = scratch.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        let location = StoreLocation(directory: file.appendingPathComponent("ecodex"))
        let error = #expect(throws: StoreError.self) {
            try AdditiveStore(location: location, basePackURL: try Fixtures.builtPack(in: scratch))
        }
        #expect(error?.errorClass == .lookup)
        #expect(caseName(error) == "cannotWrite", "\(String(describing: error))")
        #expect(throws: StoreError.self) { try UserStore(location: location) }
    }

    /// Permission bits do not stop root, so this runs only for ordinary users.
    @Test(.disabled(if: getuid() == 0, "root ignores permission bits"))
    func aReadOnlyFolderCannotGetANewStore() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        let packURL = try Fixtures.builtPack(in: scratch)
        try FileManager.default.createDirectory(at: location.directory, withIntermediateDirectories: true)
        chmod(location.directory.path, 0o555)
        let error = #expect(throws: StoreError.self) { try AdditiveStore(location: location, basePackURL: packURL) }
        #expect(["readOnlyUpgrade", "cannotWrite"].contains(caseName(error)), "\(String(describing: error))")
    }
}
