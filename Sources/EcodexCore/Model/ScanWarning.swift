/// A recoverable problem or a prompt on a result (a hard photo, nothing found, data not
/// signed). Cases carry data, never a sentence; `message` words every case, here and
/// nowhere else, and `code` names it for scripts (stable: a change is a schema version).
public enum ScanWarning: Sendable, Equatable {
    /// OCR hit its time limit, so some text may be missing.
    case readingStopped
    /// The reading was unsure; `photos` is true for a burst (several photos of one label).
    case hardToRead(photos: Bool)
    /// The print itself is too small to read (`RescanAdvice.smallPrintBelow`): distance helps, light will not.
    case printTooSmall(photos: Bool)
    /// The print is blurred (defocus or a moving hand): holding still and focusing helps.
    case blurred(photos: Bool)
    /// Light shining off the package hides part of the print: tilting it helps.
    case glare(photos: Bool)
    /// The text runs round a curve (a can, a bottle): a second photo from the side helps.
    case curvedText(photos: Bool)
    /// The photo is too dark to read: more light helps.
    case tooDark(photos: Bool)
    /// A burst skipped `skipped` of its `of` photos because they could not be read.
    case photosSkipped(skipped: Int, of: Int)
    /// A burst's time limit ran out: `readInFull` of `of` photos were read in full.
    case timeRanOut(readInFull: Int, of: Int)
    /// A barcode no product source knows; `searchedOnline` when Open Food Facts was asked too.
    case barcodeUnknown(digits: String, searchedOnline: Bool)
    /// The ingredients of a product found by barcode were used; `source` says where they came from.
    case usedProduct(source: String, digits: String)
    /// The additive data was installed from a pack the program's keys do not accept.
    case untrustedData
    /// No additive was found in what was read.
    case nothingFound
    /// A sensitivity the shopper watches for, named on the label in words of its own (`preservative: sulphites`).
    case namedOnLabel(Sensitivity, text: String)
    /// A warning read back from a saved result (`history show`): the code and words it was saved with.
    case saved(code: String, message: String)

    /// The stable name of the case, printed beside the words in JSON.
    public var code: String {
        switch self {
        case .readingStopped: "reading-stopped"
        case .hardToRead: "hard-to-read"
        case .printTooSmall: "print-too-small"
        case .blurred: "blurred"
        case .glare: "glare"
        case .curvedText: "curved-text"
        case .tooDark: "too-dark"
        case .photosSkipped: "photos-skipped"
        case .timeRanOut: "time-ran-out"
        case .barcodeUnknown: "barcode-unknown"
        case .usedProduct: "used-product"
        case .untrustedData: "untrusted-data"
        case .nothingFound: "nothing-found"
        case .namedOnLabel: "named-on-label"
        case .saved(let code, _): code
        }
    }

    /// Every code, for the JSON schema and its tests.
    public static let codes = ["reading-stopped", "hard-to-read", "print-too-small", "blurred", "glare", "curved-text",
                               "too-dark", "photos-skipped", "time-ran-out",
                               "barcode-unknown", "used-product", "untrusted-data", "nothing-found", "named-on-label"]

    /// The words a shopper reads.
    public var message: String {
        switch self {
        case .readingStopped:
            "Reading this photo took too long, so some text may be missing. Rescan it in better light."
        case .hardToRead(photos: false):
            "The photo was hard to read. Rescan it closer and in good light, scan the barcode, or type the ingredients."
        case .hardToRead(photos: true):
            "The photos were hard to read. Rescan closer and in good light, scan the barcode, or type the ingredients."
        case .printTooSmall(photos: false):
            "The print is too small in this photo. Take it closer, scan the barcode, or type the ingredients."
        case .printTooSmall(photos: true):
            "The print is too small in these photos. Take them closer, scan the barcode, or type the ingredients."
        case .blurred(photos: false):
            "The photo is blurred. Hold the phone still and tap the label to focus, then rescan it."
        case .blurred(photos: true):
            "The photos are blurred. Hold the phone still and tap the label to focus, then rescan."
        case .glare(photos: false):
            "Light shining off the package hides some of the print. Tilt the package a little and rescan it."
        case .glare(photos: true):
            "Light shining off the package hides some of the print. Tilt the package a little and rescan."
        case .curvedText(photos: false):
            "The text runs round a curve. Turn the package and take a second photo of the rest."
        case .curvedText(photos: true):
            "The text runs round a curve. Turn the package and take more photos of the rest."
        case .tooDark(photos: false):
            "The photo is too dark to read. Rescan it in more light."
        case .tooDark(photos: true):
            "The photos are too dark to read. Rescan in more light."
        case .photosSkipped(let skipped, let of):
            "\(skipped) of \(of) photos could not be read and were skipped."
        case .timeRanOut(let readInFull, let of):
            "Time ran out: \(readInFull) of \(of) photos were read in full."
        case .barcodeUnknown(let digits, searchedOnline: true):
            "Barcode \(digits) is not saved on this computer, and Open Food Facts has no ingredient list for it. Type the ingredients instead."
        case .barcodeUnknown(let digits, searchedOnline: false):
            "Barcode \(digits) is not saved on this computer. Look it up online, or type the ingredients."
        case .usedProduct(let source, let digits):
            "Used the ingredients \(source) for barcode \(digits)."
        case .untrustedData:
            "This additive data was not signed by the keys built into Ecodex; results may differ from published data."
        case .nothingFound:
            "No additives found. Scan the barcode or type the ingredients to check again."
        case .namedOnLabel(let sensitivity, let text):
            "The label names \(Self.watched(sensitivity)) (“\(text)”), which you asked to watch for."
        case .saved(_, let message): message
        }
    }

    /// What a watched sensitivity is called in `namedOnLabel`'s words.
    private static func watched(_ s: Sensitivity) -> String {
        switch s {
        case .sulphites: "sulphites"
        case .caffeine: "caffeine"
        case .shellfish: "shellfish"
        case .pku: "phenylalanine"
        }
    }
}
