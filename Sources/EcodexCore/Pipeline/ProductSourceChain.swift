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
/// - An online hit is handed to `cache` once the pipeline has assessed it (`assessed`), with
///   the codes it found, so the next scan of that barcode needs no network. A cache write that
///   fails never fails the lookup.
public final class ProductSourceChain: ProductSource {
    private let local: [ProductSource]
    private let online: ProductSource?
    private let cache: ProductCacheWriter?
    private let onLocalError: (Error) -> Void
    /// The last online find, under the key it was found by, until the pipeline assesses it.
    private var fresh: (product: Product, key: String)?

    /// `online` must be nil unless the shopper asked for the network (`--online` or the saved setting).
    public init(local: [ProductSource], online: ProductSource? = nil, cache: ProductCacheWriter? = nil,
                onLocalError: @escaping (Error) -> Void = { _ in }) {
        self.local = local
        self.online = online
        self.cache = cache
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
            fresh = (found, key)
            return found
        }
        return nil
    }

    /// Caches the online find just assessed, with the codes the pipeline found in it.
    public func assessed(_ product: Product, codes: [ECode], region: Region) {
        guard let fresh, fresh.product == product else { return }
        self.fresh = nil
        var kept = product
        kept.barcode = fresh.key
        try? cache?.remember(kept, codesFound: codes, region: region)
    }

    /// The keys to ask for, best first: the canonical form, then (for an 8-digit UPC-E) its UPC-A form.
    public static func keys(for barcode: String) -> [String] {
        let keys = GTIN.lookupKeys(typed: barcode).map(\.key)
        return keys.isEmpty ? [barcode] : keys
    }
}
