internal import CSQLite3
import EcodexCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one import did.
public struct ProductImportSummary: Sendable, Equatable {
    /// `jsonl`, `tsv` or `csv`.
    public var format: String
    /// Product lines read (a CSV header is not counted).
    public var lines: Int
    /// Lines written to the list (a barcode seen twice keeps the last line).
    public var imported: Int
    /// Lines without a usable barcode (missing, not 8–14 digits, or a wrong check digit).
    public var skippedBarcode: Int
    /// Lines without ingredient text.
    public var skippedIngredients: Int
    /// Lines that could not be read (broken JSON, a line longer than 16 MB).
    public var skippedUnreadable: Int
    /// Products in the list afterwards (one per barcode).
    public var products: Int
    public var bytes: Int64
    public var seconds: Double

    public var linesPerSecond: Double { seconds > 0 ? Double(lines) / seconds : 0 }
}

/// How far an import is, for a progress bar.
public struct ProductImportProgress: Sendable {
    public var bytes: Int64
    /// The file's size; nil when reading standard input.
    public var totalBytes: Int64?
    public var lines: Int
}

/// Imports an Open Food Facts export into the product list (`products.sqlite`).
///
/// Reads JSON Lines (one product object per line, as OFF's `.jsonl` export) or OFF's
/// CSV export (tab-separated with a header line; comma-separated files with quotes
/// work too). The file is streamed through a fixed buffer, so memory stays flat for
/// millions of lines; rows go in through one prepared statement, 10,000 per
/// transaction. Only the barcode (canonical GTIN form) and the ingredient text are kept:
/// `ingredients_text`, else `ingredients_text_en`, else the first other
/// `ingredients_text_xx`.
///
/// Every import is all or nothing, one at a time, and durable: `.replace` (the default)
/// builds a new file next to the old one, `.add` a copy of the old one with the new
/// lines added (a barcode already there takes the new line); the file is flushed and
/// swapped in only when the import finished, so a failed, interrupted or killed import
/// leaves the old list as it was. Imports take a lock in the data folder, so two at
/// once run one after the other.
public final class ProductImporter {
    public enum Mode: Sendable { case replace, add }

    public static let batchSize = 10_000
    public static let maxLineBytes = 16 << 20
    static let bufferBytes = 1 << 20

    public let location: StoreLocation

    public init(location: StoreLocation) {
        self.location = location
    }

    /// Imports `path` (`-` reads standard input). `progress` is called every few thousand lines.
    ///
    /// - Throws: `update_error` when the file cannot be read or the list cannot be written,
    ///   `parse_error` when the file is not an Open Food Facts export.
    public func importProducts(from path: String, mode: Mode = .replace,
                               progress: ((ProductImportProgress) -> Void)? = nil) throws -> ProductImportSummary {
        let started = Date()
        // A named file must be a regular file (a FIFO or /dev/zero would hang or never end);
        // `-` reads standard input, where the line-length rule below still bounds the work.
        let (fd, total): (Int32, Int64?) = path == "-" ? (0, nil) : try InputFile.open(path, role: .productList)
        defer { if fd != 0 { close(fd) } }

        // One import at a time: a second waits here, then builds on what the first left.
        return try FolderLock.withLock(FolderLock.products, in: location.directory) {
            try importLocked(fd: fd, path: path, total: total, mode: mode, started: started, progress: progress)
        }
    }

    /// Prefix of the files an import builds before swapping them in.
    static let temporaryPrefix = "products.sqlite.importing"

    /// The import itself, under the lock. Both modes build a private file beside the list
    /// (`.add` starts from a copy of it), flush it and rename it over the list: a failed,
    /// interrupted or killed import leaves the list exactly as it was.
    private func importLocked(fd: Int32, path: String, total: Int64?, mode: Mode, started: Date,
                              progress: ((ProductImportProgress) -> Void)?) throws -> ProductImportSummary {
        let fm = FileManager.default
        let finalPath = location.productsPath.path
        // Holding the lock, any build file left here is from an import that was killed.
        for name in (try? fm.contentsOfDirectory(atPath: location.directory.path)) ?? [] where name.hasPrefix(Self.temporaryPrefix) {
            unlink(location.directory.appendingPathComponent(name).path)
        }
        let adding = mode == .add && fm.fileExists(atPath: finalPath)
        let target = location.directory.appendingPathComponent("\(Self.temporaryPrefix)-\(getpid())-\(UUID().uuidString.prefix(8))").path
        var sink: ProductSink?
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(target + suffix) } }
        do {
            if adding {
                try fm.copyItem(atPath: finalPath, toPath: target)
                DataFolder.makePrivate(target)
            } else {
                try DataFolder.createPrivateFile(target)
            }
            sink = try ProductSink(path: target, fresh: !adding)
            var reader = ProductLineReader(sink: sink!, progress: progress, totalBytes: total)
            try reader.run(fd: fd)
            let name = path == "-" ? "-" : URL(fileURLWithPath: path).lastPathComponent
            let products = try sink!.finish(sourceName: name, format: reader.format?.rawValue ?? "jsonl")
            sink = nil
            guard DataFolder.syncFile(target), rename(target, finalPath) == 0 else {
                throw ImportError.cannotReplace(path: finalPath, detail: String(cString: strerror(errno)))
            }
            _ = DataFolder.syncFile(location.directory.path)
            return ProductImportSummary(
                format: reader.format?.rawValue ?? "jsonl", lines: reader.lines, imported: reader.imported,
                skippedBarcode: reader.skippedBarcode, skippedIngredients: reader.skippedIngredients,
                skippedUnreadable: reader.skippedUnreadable, products: products, bytes: reader.bytes,
                seconds: Date().timeIntervalSince(started))
        } catch {
            sink?.abandon()
            if let e = error as? any ClassifiedError { throw e }
            throw ImportError.cannotWrite(folder: location.directory, detail: "\(error)")
        }
    }
}

/// The input formats the importer reads.
enum ProductFileFormat: String {
    case jsonl, tsv, csv
}

/// Writes rows into `products.sqlite` through one prepared statement, in batches.
final class ProductSink {
    private let db: Connection
    private let insert: Statement
    private var inBatch = 0
    /// A fresh list is built through an append-only staging table and moved into the
    /// keyed table in barcode order at the end: inserting a million scattered keys
    /// straight into the B-tree thrashes the page cache, a sorted pass does not.
    private let staged: Bool

    init(path: String, fresh: Bool) throws {
        db = try Connection(path: path, mode: .readWrite)
        staged = fresh
        // The file is private until renamed and thrown away on any failure: no journal, and
        // no syncs until the one before the rename.
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE")
        if fresh {
            try db.execute(ProductSchema.create)
            try db.execute("CREATE TEMP TABLE staging (barcode TEXT NOT NULL, ingredients_text TEXT NOT NULL)")
        } else {
            let version = try db.userVersion()
            guard version == ProductSchema.version else {
                throw ImportError.cannotAddTo(path: path, version: version)
            }
        }
        // Bounded page cache (16 MB) whatever the file size; the sort spills to temporary files.
        try db.execute("PRAGMA cache_size = -16384")
        insert = try db.prepare(fresh ? "INSERT INTO temp.staging (barcode, ingredients_text) VALUES (?1, ?2)"
                                      : "INSERT OR REPLACE INTO product (barcode, ingredients_text) VALUES (?1, ?2)")
        try db.execute("BEGIN")
    }

    /// Adds one row; both buffers must stay valid for the duration of the call.
    func add(barcode: UnsafeRawBufferPointer, ingredients: UnsafeRawBufferPointer) throws {
        let h = insert.handle
        sqlite3_bind_text(h, 1, barcode.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(barcode.count), nil)
        sqlite3_bind_text(h, 2, ingredients.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(ingredients.count), nil)
        let rc = sqlite3_step(h)
        sqlite3_reset(h)
        guard rc == SQLITE_DONE else { throw db.lastError(code: rc, sql: insert.sql) }
        inBatch += 1
        if inBatch >= ProductImporter.batchSize {
            try db.execute("COMMIT; BEGIN")
            inBatch = 0
            PackFault.point("import-batch-committed")
        }
    }

    /// Commits, records where the list came from and returns how many products it holds.
    func finish(sourceName: String, format: String) throws -> Int {
        if staged {
            // Barcode order makes the keyed inserts appends; rowid order within a barcode keeps the last line.
            try db.execute("""
                INSERT OR REPLACE INTO product (barcode, ingredients_text)
                    SELECT barcode, ingredients_text FROM temp.staging ORDER BY barcode, rowid;
                DROP TABLE temp.staging;
                """)
        }
        let count = try db.scalarInt("SELECT count(*) FROM product")
        try db.prepare("""
            INSERT OR REPLACE INTO import_info (id, source_name, format, imported_at, products) VALUES (1, ?, ?, ?, ?)
            """).run([.text(sourceName), .text(format), .text(UserStore.timestamp(Date())), .int(count)])
        try db.execute("COMMIT")
        db.close()
        return Int(count)
    }

    func abandon() {
        try? db.execute("ROLLBACK")
        db.close()
    }
}
