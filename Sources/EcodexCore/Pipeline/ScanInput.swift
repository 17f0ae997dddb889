/// What one scan starts from: the one entry to the pipeline (`ScanPipeline.scan(_:options:)`).
public enum ScanInput: Sendable, Equatable {
    /// A label photo.
    case image(path: String)
    /// Several photos of one label, fused into one result.
    case burst(paths: [String])
    /// Typed or piped ingredient text; `label` names the input in the result ("text", "stdin").
    case text(String, label: String = "text")
    /// One additive code (`E120`, `INS 211`).
    case code(String)
    /// Barcode digits typed by hand.
    case barcodeDigits(String)
    /// A photo of a barcode: decoded, then looked up like typed digits.
    case barcodePhoto(path: String)

    /// What the shopper gave `scan barcode`: digits (with spaces or dashes between groups)
    /// are typed digits; anything else is taken for a photo of the barcode.
    public static func barcode(_ argument: String) -> ScanInput {
        argument.allSatisfy({ $0.isNumber || $0 == " " || $0 == "-" }) ? .barcodeDigits(argument) : .barcodePhoto(path: argument)
    }
}
