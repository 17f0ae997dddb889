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

/// A failure a library throws: an enum whose cases carry what happened (paths, numbers,
/// the system's reason), never a sentence for the shopper. `errorClass` fixes its exit
/// code; the command line words each case, with its advice, in one place
/// (`Sources/scan/Failure.swift`). `description` is technical context for logs and tests
/// and never names a command or a flag.
public protocol ClassifiedError: Error, Sendable, CustomStringConvertible {
    var errorClass: ErrorClass { get }
}
