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

/// A failure that stops one input. `message` tells the shopper what to do next;
/// `detail` carries technical context for logs (never label text or images).
public struct EcodexError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errorClass: ErrorClass
    public var message: String
    public var detail: String?

    public init(_ errorClass: ErrorClass, _ message: String, detail: String? = nil) {
        self.errorClass = errorClass
        self.message = message
        self.detail = detail
    }

    public var description: String {
        "\(errorClass.rawValue): \(message)" + (detail.map { " (\($0))" } ?? "")
    }

    public static func capture(_ message: String, detail: String? = nil) -> EcodexError { .init(.capture, message, detail: detail) }
    public static func ocr(_ message: String, detail: String? = nil) -> EcodexError { .init(.ocr, message, detail: detail) }
    public static func parse(_ message: String, detail: String? = nil) -> EcodexError { .init(.parse, message, detail: detail) }
    public static func lookup(_ message: String, detail: String? = nil) -> EcodexError { .init(.lookup, message, detail: detail) }
    public static func network(_ message: String, detail: String? = nil) -> EcodexError { .init(.network, message, detail: detail) }
    public static func update(_ message: String, detail: String? = nil) -> EcodexError { .init(.update, message, detail: detail) }
}
