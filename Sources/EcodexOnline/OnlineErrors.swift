import EcodexCore

// The errors the online module throws: one enum for the Open Food Facts client and one for
// the pack fetcher. Cases carry the address (user names and passwords already removed) and
// the cause; the command line words them.

/// Why an opt-in Open Food Facts lookup gave no answer. Every case is a `network_error`.
public enum OpenFoodFactsError: ClassifiedError, Equatable {
    /// The configured base address is not a URL (`address` redacted).
    case invalidAddress(String)
    /// The configured base address is not https (nor loopback http).
    case notHTTPS(String)
    /// An HTTP status that is neither an answer nor worth retrying.
    case unexpectedStatus(Int)
    /// A body over `limit` bytes.
    case tooLarge(limit: Int)
    /// A redirect that breaks the download rules (`detail` says which).
    case refusedRedirect(detail: String)
    /// Still busy (HTTP 429) when the time budget ran out.
    case busy(attempts: Int, last: String)
    /// No usable answer within the time budget.
    case timedOut(attempts: Int, budget: Double, last: String)
    /// An answer that is not a JSON object.
    case unreadableAnswer(bytes: Int)

    public var errorClass: ErrorClass { .network }

    public var description: String {
        switch self {
        case .invalidAddress(let a): "not a URL: \(a)"
        case .notHTTPS(let a): "not https: \(a)"
        case .unexpectedStatus(let status): "HTTP \(status)"
        case .tooLarge(let limit): "body over \(limit) bytes"
        case .refusedRedirect(let detail): detail
        case .busy(let attempts, let last): "\(attempts) attempt(s); last: \(last)"
        case .timedOut(let attempts, let budget, let last): "\(attempts) attempt(s) within \(budget) s; last: \(last)"
        case .unreadableAnswer(let bytes): "not a JSON object (\(bytes) bytes)"
        }
    }
}

/// Why a pack could not be fetched: an `update_error` when the address or the file breaks
/// the rules (it will not change by retrying), a `network_error` when the download failed.
public enum PackFetchError: ClassifiedError, Equatable {
    /// Neither a file, a folder nor a URL (`source` redacted).
    case notASource(String)
    /// A URL that is not https (nor loopback http).
    case notHTTPS(String)
    /// The server answered with HTTP `status`.
    case httpStatus(Int, url: String)
    /// A download over `limit` bytes.
    case tooLarge(url: String, limit: Int)
    /// No complete download within `seconds`.
    case timedOut(seconds: Int, url: String)
    /// A redirect that breaks the download rules.
    case refusedRedirect(detail: String)
    /// The connection failed (no network, host unknown …).
    case failed(host: String, detail: String)

    public var errorClass: ErrorClass {
        switch self {
        case .notASource, .notHTTPS, .tooLarge, .refusedRedirect: .update
        case .httpStatus, .timedOut, .failed: .network
        }
    }

    public var description: String {
        switch self {
        case .notASource(let s): "not a file, folder or URL: \(s)"
        case .notHTTPS(let s): "not https: \(s)"
        case .httpStatus(let status, let url): "\(url): HTTP \(status)"
        case .tooLarge(let url, let limit): "\(url): over \(limit) bytes"
        case .timedOut(let seconds, let url): "\(url): no download within \(seconds) s"
        case .refusedRedirect(let detail): detail
        case .failed(let host, let detail): "\(host): \(detail)"
        }
    }
}
