/// Keeps a product found online so the next lookup of that barcode works offline.
/// The product cache (`EcodexStore.UserStore`) is the real one.
public protocol ProductCacheWriter: AnyObject {
    /// Saves barcode, ingredient text, the codes found in it, the time and the region: nothing else.
    func remember(_ product: Product, codesFound: [ECode], region: Region) throws
}

/// The product sources in their fixed order: the local ones (the product cache, then an
/// imported product list) and, only when the shopper allowed the network, an online one.
///
/// - Barcodes are looked up under their canonical key (`GTIN.key`: a UPC-A is asked
///   for as its EAN-13 form; a UPC-E is also tried as the UPC-A it stands for).
/// - A local source that fails (a damaged file) is reported to `onLocalError` and skipped:
///   one broken file must not hide the others.
/// - An online failure is thrown as it came (`network_error`): the shopper asked for the
///   network, so they hear that it did not answer.
/// - An online hit is handed to `cache` with the codes found in its text, so the next scan
///   of that barcode needs no network. A cache write that fails never fails the lookup.
public final class ProductSourceChain: ProductSource {
    private let local: [ProductSource]
    private let online: ProductSource?
    private let cache: ProductCacheWriter?
    private let region: Region
    private let codesFound: (String) -> [ECode]
    private let onLocalError: (Error) -> Void

    /// `online` must be nil unless the shopper asked for the network (`--online` or the saved setting).
    public init(local: [ProductSource], online: ProductSource? = nil, cache: ProductCacheWriter? = nil,
                region: Region = .eu, codesFound: @escaping (String) -> [ECode] = { _ in [] },
                onLocalError: @escaping (Error) -> Void = { _ in }) {
        self.local = local
        self.online = online
        self.cache = cache
        self.region = region
        self.codesFound = codesFound
        self.onLocalError = onLocalError
    }

    /// True when this chain may go online.
    public var isOnline: Bool { online != nil }
    public var searchesOnline: Bool { isOnline }

    public func product(barcode: String) throws -> Product? {
        let keys = ProductSourceChain.keys(for: barcode)
        for source in local {
            for key in keys {
                do {
                    if let found = try source.product(barcode: key) { return found }
                } catch {
                    onLocalError(error)
                    break
                }
            }
        }
        guard let online else { return nil }
        for key in keys {
            guard let found = try online.product(barcode: key) else { continue }
            if let cache {
                var kept = found
                kept.barcode = key
                try? cache.remember(kept, codesFound: codesFound(found.ingredientsText), region: region)
            }
            return found
        }
        return nil
    }

    /// The keys to ask for, best first: the canonical form, then (for an 8-digit UPC-E) its UPC-A form.
    public static func keys(for barcode: String) -> [String] {
        let keys = GTIN.lookupKeys(typed: barcode).map(\.key)
        return keys.isEmpty ? [barcode] : keys
    }
}
