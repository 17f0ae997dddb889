import EcodexCore
import Foundation

extension StoreLocation {
    /// The imported product list (`scan products import`): a separate file, so a large
    /// import never bloats or locks the scan history and is never touched by a store rebuild.
    public var productsPath: URL { directory.appendingPathComponent("products.sqlite") }
}

/// What `scan products status` shows about the imported product list.
public struct ProductDatasetInfo: Sendable, Equatable {
    /// Products kept (one per barcode).
    public var products: Int
    /// The imported file's name (never its folders), or `-` for standard input.
    public var sourceName: String
    /// `jsonl`, `tsv` or `csv`.
    public var format: String
    public var importedAt: Date
    public var fileBytes: Int64
}

/// The imported product list (`products.sqlite`): barcode → ingredient text, nothing else.
///
/// Read-only here; `ProductImporter` writes it. A missing file is simply an empty list,
/// so looking up a barcode never creates a file.
public final class ProductDataset: ProductSource, @unchecked Sendable {
    /// How the shopper is told where the ingredients came from.
    public static let sourceLabel = "from the imported product list"

    public let path: URL
    private let shared: SerializedConnection

    public init(location: StoreLocation) {
        let path = location.productsPath
        self.path = path
        shared = SerializedConnection(lazy: {
            guard FileManager.default.fileExists(atPath: path.path) else { return nil }
            let c = try Connection(path: path.path, mode: .readOnly)
            let version = try c.userVersion()
            guard version >= 1 else {
                throw ProductListError.damaged(path: path, detail: "no product schema (user_version \(version))")
            }
            if version > ProductSchema.version {
                throw ProductListError.newerSchema(path: path, found: version)
            }
            return c
        }, translate: { error in
            error.isDamage ? ProductListError.damaged(path: path, detail: error.description)
                : ProductListError.unreadable(path: path, detail: error.description)
        })
    }

    public func product(barcode: String) throws -> Product? {
        try shared.run { db in
            guard let db else { return nil }
            let statement = try db.cached("SELECT ingredients_text FROM product WHERE barcode = ?")
            try statement.bind([.text(barcode)])
            defer { statement.reset() }
            guard try statement.step() else { return nil }
            return Product(barcode: barcode, ingredientsText: statement.text(0), source: ProductDataset.sourceLabel)
        }
    }

    /// nil when nothing was imported yet.
    public func info() throws -> ProductDatasetInfo? {
        try shared.run { db in
            guard let db else { return nil }
            let statement = try db.prepare("SELECT source_name, format, imported_at, products FROM import_info WHERE id = 1")
            let size = (try? FileManager.default.attributesOfItem(atPath: path.path)[.size] as? NSNumber)?.int64Value ?? 0
            guard try statement.step() else {
                return ProductDatasetInfo(products: Int(try db.scalarInt("SELECT count(*) FROM product")), sourceName: "?",
                                          format: "?", importedAt: Date(timeIntervalSince1970: 0), fileBytes: size)
            }
            return ProductDatasetInfo(products: Int(statement.int64(3)), sourceName: statement.text(0), format: statement.text(1),
                                      importedAt: UserStore.date(statement.text(2)), fileBytes: size)
        }
    }

}

/// The schema of `products.sqlite`.
enum ProductSchema {
    static let version = 1

    static let create = """
        CREATE TABLE product (
            barcode          TEXT NOT NULL PRIMARY KEY,
            ingredients_text TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE import_info (
            id          INTEGER PRIMARY KEY CHECK (id = 1),
            source_name TEXT NOT NULL,
            format      TEXT NOT NULL,
            imported_at TEXT NOT NULL,
            products    INTEGER NOT NULL
        );
        PRAGMA user_version = 1;
        """
}

/// The product cache keeps online finds: barcode, ingredient text, codes found, time and region.
extension UserStore: ProductCacheWriter {
    public func remember(_ product: Product, codesFound: [ECode], region: Region) throws {
        try cacheProduct(CachedProduct(barcode: product.barcode, ingredientsText: product.ingredientsText,
                                       additivesFound: codesFound, timestamp: Date(), region: region))
    }

    /// How many products the cache in `user.sqlite` holds (0 when there is no file yet).
    public static func cachedProductCount(location: StoreLocation) throws -> Int {
        guard FileManager.default.fileExists(atPath: location.userPath.path) else { return 0 }
        do {
            let db = try Connection(path: location.userPath.path, mode: .readOnly)
            defer { db.close() }
            guard try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'product_cache'") > 0 else { return 0 }
            return Int(try db.scalarInt("SELECT count(*) FROM product_cache"))
        } catch let error as SQLiteError {
            throw UserStore.translate(error, path: location.userPath)
        }
    }
}

/// Barcode lookups in the product cache of `user.sqlite`, read-only and by key only.
///
/// `UserStore` writes the cache (`remember`, `cacheProduct`); this reads just the
/// ingredient text, without decoding the row's time, so a hit costs tens of
/// microseconds. A missing file or table is an empty cache; nothing is created.
public final class ProductCacheLookup: ProductSource, @unchecked Sendable {
    /// How the shopper is told where the ingredients came from (as `UserStore`'s own lookup says).
    public static let sourceLabel = "saved on this computer"

    public let path: URL
    private let shared: SerializedConnection

    public init(location: StoreLocation) {
        let path = location.userPath
        self.path = path
        shared = SerializedConnection(lazy: {
            guard FileManager.default.fileExists(atPath: path.path) else { return nil }
            let c = try UserStore.openReadOnly(path)
            try c.execute("PRAGMA busy_timeout = \(UserStore.busyTimeoutMs)")
            guard try c.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'product_cache'") > 0 else {
                c.close()
                return nil
            }
            return c
        }, translate: { UserStore.translate($0, path: path) })
    }

    public func product(barcode: String) throws -> Product? {
        try shared.run { db in
            guard let db else { return nil }
            let statement = try db.cached("SELECT ingredients_text FROM product_cache WHERE barcode = ?")
            try statement.bind([.text(barcode)])
            defer { statement.reset() }
            guard try statement.step() else { return nil }
            return Product(barcode: barcode, ingredientsText: statement.text(0), source: Self.sourceLabel)
        }
    }
}
