import EcodexCore

/// The product cache answers barcode lookups offline.
extension UserStore: ProductSource {
    public func product(barcode: String) throws -> Product? {
        try cachedProduct(barcode: barcode).map {
            Product(barcode: $0.barcode, ingredientsText: $0.ingredientsText, source: "saved on this computer")
        }
    }
}
