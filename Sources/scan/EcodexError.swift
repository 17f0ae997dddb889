import EcodexCore

/// What to do about a failure, as this command line advises it. `Failure` picks the advice
/// for each library error case, `Advice.sentence` words it, and a test runs every command
/// it names (`scan advice`).
enum Advice: String, Sendable, CaseIterable, Codable {
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

/// A failure as the shopper sees it: its class, the message and the advice. The libraries
/// throw typed errors (`ClassifiedError`); `Failure.classify` words them into this, and the
/// command line's own failures (a name no additive has, empty standard input) are made as
/// this directly.
struct EcodexError: ClassifiedError, Equatable {
    var errorClass: ErrorClass
    var message: String
    /// Technical context for logs (the library error's description), never shown as the message.
    var detail: String?
    /// What to do next, when there is something beyond the message.
    var advice: Advice?

    init(_ errorClass: ErrorClass, _ message: String, advice: Advice? = nil, detail: String? = nil) {
        self.errorClass = errorClass
        self.message = message
        self.advice = advice
        self.detail = detail
    }

    var description: String {
        "\(errorClass.rawValue): \(message)" + (detail.map { " (\($0))" } ?? "")
    }

    static func capture(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.capture, message, advice: advice, detail: detail)
    }
    static func parse(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.parse, message, advice: advice, detail: detail)
    }
    static func lookup(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.lookup, message, advice: advice, detail: detail)
    }
    static func network(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.network, message, advice: advice, detail: detail)
    }
    static func update(_ message: String, advice: Advice? = nil, detail: String? = nil) -> EcodexError {
        .init(.update, message, advice: advice, detail: detail)
    }
}
