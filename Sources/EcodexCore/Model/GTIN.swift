/// Product barcode numbers (GTIN-8, UPC-A / GTIN-12, EAN-13): check digits and one canonical form.
public enum GTIN {
    /// True when `digits` is 8, 12 or 13 digits with a correct check digit.
    public static func isValid(_ digits: String) -> Bool {
        let d = digits.compactMap(\.wholeNumberValue)
        guard d.count == digits.count, [8, 12, 13].contains(d.count) else { return false }
        // Weights 3,1,3,1… from the digit left of the check digit, for every GTIN length.
        var sum = 0
        for (i, v) in d.dropLast().reversed().enumerated() { sum += v * (i % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == d.last!
    }

    /// The key products are stored under: EAN-13 for UPC-A (a leading 0), otherwise as given.
    /// Returns nil for anything that is not a valid GTIN.
    public static func canonical(_ typed: String) -> String? {
        let digits = typed.filter { !" -".contains($0) }
        guard isValid(digits) else { return nil }
        return digits.count == 12 ? "0" + digits : digits
    }
}
