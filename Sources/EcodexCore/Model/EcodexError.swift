/// The class of a failure, with its documented exit code (see README "Exit codes").
public enum ErrorClass: String, Codable, Sendable, CaseIterable {
    case capture = "capture_error"
    case ocr = "ocr_error"
    case parse = "parse_error"
    case lookup = "lookup_error"
    case network = "network_error"
    case update = "update_error"

    public var exitCode: Int32 {
        switch self {
        case .capture: 10
        case .ocr: 11
        case .parse: 12
        case .lookup: 13
        case .network: 14
        case .update: 15
        }
    }
}

/// What the shopper can do about a failure, named without any command-line syntax: the
/// command line words each one (with the command to run) in one place, and a test runs
/// every command it names.
public enum Advice: String, Sendable, CaseIterable, Codable {
    /// Restore the additive store from the built-in pack.
    case rebuildStore
    /// Set a damaged history file aside and start a new one.
    case resetHistory
    /// Replace a damaged preferences file with the defaults.
    case resetPreferences
    /// Type (or paste) the ingredient list instead.
    case typeIngredients
    /// Allow the online product lookup and try again.
    case lookUpOnline
    /// Import the product list file again.
    case importProducts
    /// Import a product list without adding to the current one.
    case importProductsReplacing
    /// Use another (writable) data folder.
    case chooseDataFolder
    /// Run the update again (when online).
    case retryUpdate
    /// Install the OCR engine and its language files.
    case installOCR
    /// List past results with their numbers.
    case listHistory
}

/// A failure that stops one input. `message` tells the shopper what to do next;
/// `detail` carries technical context for logs (never label text or images).
public struct EcodexError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errorClass: ErrorClass
    public var message: String
    public var detail: String?
    /// What to do next, when there is something beyond the message.
    public var advice: Advice?

    public init(_ errorClass: ErrorClass, _ message: String, advice: Advice? = nil, detail: String? = nil) {
        self.errorClass = errorClass
        self.message = message
        self.advice = advice
        self.detail = detail
    }

    public var description: String {
        "\(errorClass.rawValue): \(message)" + (detail.map { " (\($0))" } ?? "")
    }

    public static func capture(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.capture, message, advice: advice, detail: detail)
    }
    public static func ocr(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.ocr, message, advice: advice, detail: detail)
    }
    public static func parse(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.parse, message, advice: advice, detail: detail)
    }
    public static func lookup(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.lookup, message, advice: advice, detail: detail)
    }
    public static func network(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.network, message, advice: advice, detail: detail)
    }
    public static func update(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.update, message, advice: advice, detail: detail)
    }
}
