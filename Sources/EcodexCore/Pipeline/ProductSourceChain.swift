/// Keeps a product found online so the next lookup of that barcode works offline.
/// The product cache (`EcodexStore.UserStore`) is the real one.
public protocol ProductCacheWriter: AnyObject {
    /// Saves barcode, ingredient text, the codes found in it, the time and the region: nothing else.
    func remember(_ product: Product, codesFound: [ECode], region: Region) throws
}

/// The product sources in their fixed order: the local ones (the product cache, then an
/// imported product list) and, only when the shopper allowed the network, an online one.
///
/// - Barcodes are looked up under their canonical key (`GTIN.canonical`: a UPC-A is asked
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
        var keys: [String] = []
        if let canonical = GTIN.canonical(barcode) { keys.append(canonical) }
        if let expanded = GTIN.upcAFromUPCE(barcode), let canonical = GTIN.canonical(expanded), !keys.contains(canonical) {
            keys.append(canonical)
        }
        if keys.isEmpty { keys.append(barcode) }
        return keys
    }
}

extension GTIN {
    /// The 12-digit UPC-A a valid 8-digit UPC-E (number system 0 or 1) stands for, else nil.
    public static func upcAFromUPCE(_ typed: String) -> String? {
        let d = typed.compactMap(\.wholeNumberValue)
        guard d.count == 8, d.count == typed.count, d[0] == 0 || d[0] == 1 else { return nil }
        let m = Array(d[1...6])
        let body: [Int]
        switch m[5] {
        case 0, 1, 2: body = [m[0], m[1], m[5], 0, 0, 0, 0, m[2], m[3], m[4]]
        case 3: body = [m[0], m[1], m[2], 0, 0, 0, 0, 0, m[3], m[4]]
        case 4: body = [m[0], m[1], m[2], m[3], 0, 0, 0, 0, 0, m[4]]
        default: body = [m[0], m[1], m[2], m[3], m[4], 0, 0, 0, 0, m[5]]
        }
        let upcA = ([d[0]] + body + [d[7]]).map(String.init).joined()
        return isValid(upcA) ? upcA : nil
    }
}
