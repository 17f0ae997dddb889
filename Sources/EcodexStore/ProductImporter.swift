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

/// Streams lines from a file descriptor through a fixed buffer, recognises the format
/// from the first line, and hands each product's barcode and ingredients to the sink.
struct ProductLineReader {
    let sink: ProductSink
    let progress: ((ProductImportProgress) -> Void)?
    let totalBytes: Int64?

    private(set) var format: ProductFileFormat?
    private(set) var lines = 0
    private(set) var imported = 0
    private(set) var skippedBarcode = 0
    private(set) var skippedIngredients = 0
    private(set) var skippedUnreadable = 0
    private(set) var bytes: Int64 = 0

    /// Columns of a CSV header: the barcode, then ingredient columns best first.
    private var codeColumn = -1
    private var ingredientColumns: [Int] = []
    private var lastNeededColumn = 0
    private var isFirstLine = true
    /// Reused buffers: unescaped ingredient text, the canonical barcode, CSV field ranges.
    private var scratch: [UInt8] = []
    private var key = [UInt8](repeating: 0, count: 16)
    private var fieldRanges: [Range<Int>] = []

    init(sink: ProductSink, progress: ((ProductImportProgress) -> Void)?, totalBytes: Int64?) {
        self.sink = sink
        self.progress = progress
        self.totalBytes = totalBytes
        scratch.reserveCapacity(64 * 1024)
    }

    mutating func run(fd: Int32) throws {
        let size = ProductImporter.bufferBytes
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []
        var overlong = false
        while true {
            let n = read(fd, buffer.baseAddress, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportError.readFailed(reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            bytes += Int64(n)
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var start = 0
            while start < n, let hit = memchr(base + start, 0x0A, n - start) {
                let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if carry.isEmpty && !overlong {
                    try line(UnsafeBufferPointer(start: base + start, count: end - start))
                } else {
                    if !overlong && carry.count + (end - start) <= ProductImporter.maxLineBytes {
                        carry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                        try carry.withUnsafeBufferPointer { try line($0) }
                    } else {
                        lines += 1
                        skippedUnreadable += 1
                    }
                    carry.removeAll(keepingCapacity: carry.capacity <= 1 << 20)
                    overlong = false
                }
                start = end + 1
            }
            if start < n {
                if !overlong && carry.count + (n - start) <= ProductImporter.maxLineBytes {
                    carry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: n - start))
                } else {
                    // A first line this long is no export's header or record (`/dev/zero`, a
                    // binary file): stop now instead of reading to an end that may never come.
                    if isFirstLine {
                        throw ImportError.firstLineTooLong(limit: ProductImporter.maxLineBytes)
                    }
                    overlong = true
                    carry.removeAll()
                }
            }
        }
        if overlong {
            lines += 1
            skippedUnreadable += 1
        } else if !carry.isEmpty {
            try carry.withUnsafeBufferPointer { try line($0) }
        }
        if isFirstLine {
            throw ImportError.empty
        }
        progress?(ProductImportProgress(bytes: bytes, totalBytes: totalBytes, lines: lines))
    }

    private mutating func line(_ raw: UnsafeBufferPointer<UInt8>) throws {
        var p = raw
        if let last = p.last, last == 0x0D { p = UnsafeBufferPointer(rebasing: p.dropLast()) }
        if isFirstLine {
            if p.count >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { p = UnsafeBufferPointer(rebasing: p.dropFirst(3)) }
            if p.allSatisfy(Self.isSpace) { return }
            isFirstLine = false
            if p.count >= 2, p[0] == 0x1F, p[1] == 0x8B {
                throw ImportError.compressed
            }
            if let first = p.first(where: { !Self.isSpace($0) }), first == UInt8(ascii: "{") {
                format = .jsonl
            } else {
                try header(p)
                return
            }
        }
        if p.isEmpty { return }
        lines += 1
        if lines & 8191 == 0 {
            progress?(ProductImportProgress(bytes: bytes, totalBytes: totalBytes, lines: lines))
        }
        switch format {
        case .jsonl: try jsonLine(p)
        case .tsv, .csv: try csvLine(p)
        case nil: break
        }
    }

    // MARK: - JSON Lines

    private mutating func jsonLine(_ p: UnsafeBufferPointer<UInt8>) throws {
        var code: JSONScan.Value?
        var ingredients: [JSONScan.Value?] = [nil, nil, nil]
        let ok = JSONScan.topLevel(p) { key, value in
            switch JSONScan.classify(key, in: p) {
            case .code: code = value
            case .ingredients: ingredients[0] = value
            case .ingredientsEnglish: ingredients[1] = value
            case .ingredientsOther: if ingredients[2] == nil || ingredients[2]!.range.isEmpty { ingredients[2] = value }
            case .other: break
            }
        }
        guard ok else { skippedUnreadable += 1; return }
        guard let code, let keyCount = canonicalBarcode(p, code.range) else { skippedBarcode += 1; return }
        guard let text = ingredients.first(where: { $0.map { $0.isString && Self.hasText(p, $0.range) } ?? false }) ?? nil else {
            skippedIngredients += 1
            return
        }
        try store(p, keyCount: keyCount, text: text.range, escaped: text.escaped)
    }

    // MARK: - CSV

    private mutating func header(_ p: UnsafeBufferPointer<UInt8>) throws {
        let tab = p.contains(0x09)
        format = tab ? .tsv : .csv
        split(p, all: true)
        let names = fieldRanges.map { r in
            String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).lowercased()
        }
        codeColumn = names.firstIndex(of: "code") ?? names.firstIndex(of: "barcode") ?? -1
        var columns: [Int] = []
        if let i = names.firstIndex(of: "ingredients_text") { columns.append(i) }
        if let i = names.firstIndex(of: "ingredients_text_en") { columns.append(i) }
        for (i, n) in names.enumerated() where n.count == 19 && n.hasPrefix("ingredients_text_") && !columns.contains(i) {
            columns.append(i)
        }
        guard codeColumn >= 0, !columns.isEmpty else {
            throw ImportError.notAnExport
        }
        ingredientColumns = columns
        lastNeededColumn = ([codeColumn] + columns).max()!
    }

    private mutating func csvLine(_ p: UnsafeBufferPointer<UInt8>) throws {
        split(p)
        guard fieldRanges.count > codeColumn, let keyCount = canonicalBarcode(p, unquoted(p, fieldRanges[codeColumn]).range)
        else { skippedBarcode += 1; return }
        for column in ingredientColumns where column < fieldRanges.count {
            let field = unquoted(p, fieldRanges[column])
            if Self.hasText(p, field.range) {
                try store(p, keyCount: keyCount, text: field.range, escaped: false, csvQuoted: field.quoted)
                return
            }
        }
        skippedIngredients += 1
    }

    /// Splits a CSV line into field ranges (up to the last column needed). Tab-separated
    /// files split on every tab (OFF's export has no quoting); comma-separated ones honour
    /// double quotes.
    private mutating func split(_ p: UnsafeBufferPointer<UInt8>, all: Bool = false) {
        fieldRanges.removeAll(keepingCapacity: true)
        let limit = all ? Int.max : lastNeededColumn
        var start = 0
        if format == .tsv {
            let base = p.baseAddress!
            while fieldRanges.count <= limit {
                if start >= p.count { fieldRanges.append(start..<start); break }
                if let hit = memchr(base + start, 0x09, p.count - start) {
                    let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    fieldRanges.append(start..<end)
                    start = end + 1
                } else {
                    fieldRanges.append(start..<p.count)
                    break
                }
            }
            return
        }
        var i = 0
        var quoted = false
        while i < p.count {
            let c = p[i]
            if quoted {
                if c == 0x22 {
                    if i + 1 < p.count && p[i + 1] == 0x22 { i += 1 } else { quoted = false }
                }
            } else if c == 0x22 && i == start {
                quoted = true
            } else if c == UInt8(ascii: ",") {
                fieldRanges.append(start..<i)
                if fieldRanges.count > limit { return }
                start = i + 1
            }
            i += 1
        }
        fieldRanges.append(start..<p.count)
    }

    /// A field without its surrounding double quotes.
    private func unquoted(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> (range: Range<Int>, quoted: Bool) {
        if r.count >= 2, p[r.lowerBound] == 0x22, p[r.upperBound - 1] == 0x22 {
            return ((r.lowerBound + 1)..<(r.upperBound - 1), true)
        }
        return (r, false)
    }

    // MARK: - Rows

    /// Writes the canonical barcode (its first `keyCount` bytes are in `key`) and the text.
    private mutating func store(_ p: UnsafeBufferPointer<UInt8>, keyCount: Int, text: Range<Int>, escaped: Bool,
                                csvQuoted: Bool = false) throws {
        let slice = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(p)[text])
        if escaped || csvQuoted {
            scratch.removeAll(keepingCapacity: true)
            if escaped {
                JSONScan.unescape(UnsafeBufferPointer(rebasing: p[text]), into: &scratch)
            } else {
                // "" inside a quoted CSV field is one quote.
                var i = text.lowerBound
                while i < text.upperBound {
                    scratch.append(p[i])
                    i += p[i] == 0x22 && i + 1 < text.upperBound && p[i + 1] == 0x22 ? 2 : 1
                }
            }
            let trimmed = Self.trimmed(scratch)
            try key.withUnsafeBytes { k in
                try scratch.withUnsafeBytes { s in
                    try sink.add(barcode: UnsafeRawBufferPointer(rebasing: k[0..<keyCount]),
                                 ingredients: UnsafeRawBufferPointer(rebasing: s[trimmed]))
                }
            }
        } else {
            let trimmed = Self.trimmed(slice)
            try key.withUnsafeBytes { k in
                try sink.add(barcode: UnsafeRawBufferPointer(rebasing: k[0..<keyCount]),
                             ingredients: UnsafeRawBufferPointer(rebasing: slice[trimmed]))
            }
        }
        imported += 1
    }

    /// Puts the canonical GTIN key of the digits in `r` (`GTIN.canonicalKey`, the one owner
    /// of the rule) into `key` and returns its length, or nil when they are not a valid barcode.
    private mutating func canonicalBarcode(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi, Self.isSpace(p[lo]) { lo += 1 }
        while hi > lo, Self.isSpace(p[hi - 1]) { hi -= 1 }
        return GTIN.canonicalKey(ascii: UnsafeBufferPointer(rebasing: p[lo..<hi]), into: &key)
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A }

    static func hasText(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        for i in r where !isSpace(p[i]) { return true }
        return false
    }

    static func trimmed<C: RandomAccessCollection>(_ c: C) -> Range<Int> where C.Element == UInt8, C.Index == Int {
        var lo = c.startIndex, hi = c.endIndex
        while lo < hi, isSpace(c[lo]) { lo += 1 }
        while hi > lo, isSpace(c[hi - 1]) { hi -= 1 }
        return lo..<hi
    }
}

/// A minimal scanner for the top level of one JSON object: finds the members the importer
/// needs and skips every other value without building it.
enum JSONScan {
    struct Value {
        /// For a string, its contents between the quotes; otherwise the raw value.
        var range: Range<Int>
        var isString: Bool
        var escaped: Bool
    }

    enum Key { case code, ingredients, ingredientsEnglish, ingredientsOther, other }

    private static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C

    static func classify(_ key: Range<Int>, in p: UnsafeBufferPointer<UInt8>) -> Key {
        let n = key.count
        guard n == 4 || n == 16 || n == 19 else { return .other }
        let base = p.baseAddress! + key.lowerBound
        if n == 4 { return memcmp(base, "code", 4) == 0 ? .code : .other }
        guard memcmp(base, "ingredients_text", 16) == 0 else { return .other }
        if n == 16 { return .ingredients }
        guard base[16] == UInt8(ascii: "_"), (0x61...0x7A).contains(base[17]), (0x61...0x7A).contains(base[18]) else { return .other }
        return base[17] == UInt8(ascii: "e") && base[18] == UInt8(ascii: "n") ? .ingredientsEnglish : .ingredientsOther
    }

    /// Calls `member` for each top-level member of the object in `p`; false when `p` is not one object.
    static func topLevel(_ p: UnsafeBufferPointer<UInt8>, _ member: (Range<Int>, Value) -> Void) -> Bool {
        let n = p.count
        var i = skipSpace(p, 0)
        guard i < n, p[i] == UInt8(ascii: "{") else { return false }
        i = skipSpace(p, i + 1)
        if i < n, p[i] == UInt8(ascii: "}") { return true }
        while i < n {
            guard p[i] == quote, let key = string(p, i) else { return false }
            i = skipSpace(p, key.next)
            guard i < n, p[i] == UInt8(ascii: ":") else { return false }
            i = skipSpace(p, i + 1)
            guard i < n else { return false }
            if p[i] == quote {
                guard let s = string(p, i) else { return false }
                member(key.range, Value(range: s.range, isString: true, escaped: s.escaped))
                i = s.next
            } else {
                let start = i
                guard let end = skipValue(p, i) else { return false }
                member(key.range, Value(range: start..<end, isString: false, escaped: false))
                i = end
            }
            i = skipSpace(p, i)
            guard i < n else { return false }
            if p[i] == UInt8(ascii: ",") { i = skipSpace(p, i + 1); continue }
            if p[i] == UInt8(ascii: "}") { return true }
            return false
        }
        return false
    }

    private static func skipSpace(_ p: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var i = from
        while i < p.count, ProductLineReader.isSpace(p[i]) { i += 1 }
        return i
    }

    /// The string starting at the quote at `i`: its contents, whether it has escapes, and the index after it.
    private static func string(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (range: Range<Int>, escaped: Bool, next: Int)? {
        let base = p.baseAddress!
        var j = i + 1
        var escaped = false
        while j < p.count {
            guard let hit = memchr(base + j, Int32(quote), p.count - j) else { return nil }
            let q = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            // The quote ends the string unless an odd number of backslashes precede it.
            var k = q - 1, slashes = 0
            while k > i, p[k] == backslash { slashes += 1; k -= 1 }
            if slashes > 0 { escaped = true }
            if slashes % 2 == 0 {
                if !escaped, memchr(base + i + 1, Int32(backslash), q - i - 1) != nil { escaped = true }
                return ((i + 1)..<q, escaped, q + 1)
            }
            j = q + 1
        }
        return nil
    }

    /// The index after the non-string value at `i` (object, array, number or literal).
    private static func skipValue(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        var j = i
        var depth = 0
        while j < p.count {
            let c = p[j]
            if c == quote {
                guard depth > 0, let s = string(p, j) else { return nil }
                j = s.next
                continue
            }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                if depth == 0 { return j > i ? j : nil }
                depth -= 1
                if depth == 0 { return j + 1 }
            } else if depth == 0 && (c == UInt8(ascii: ",") || ProductLineReader.isSpace(c)) {
                return j > i ? j : nil
            }
            j += 1
        }
        return depth == 0 && j > i ? j : nil
    }

    /// Appends the UTF-8 of a JSON string's contents (escapes resolved) to `out`.
    static func unescape(_ s: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var i = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= s.count else { return nil }
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                let c = s[k]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: return nil
                }
                v = v << 4 | d
            }
            return v
        }
        while i < s.count {
            let c = s[i]
            guard c == backslash, i + 1 < s.count else { out.append(c); i += 1; continue }
            let e = s[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"), UInt8(ascii: "f"): out.append(0x20)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(i) else { out.append(UInt8(ascii: "?")); continue }
                i += 4
                if (0xD800...0xDBFF).contains(scalar), i + 6 <= s.count, s[i] == backslash, s[i + 1] == UInt8(ascii: "u"),
                   let low = hex4(i + 2), (0xDC00...0xDFFF).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: UTF8.encode(u)!)
            default: out.append(e) // \" \\ \/ and anything unknown: the character itself
            }
        }
    }
}
