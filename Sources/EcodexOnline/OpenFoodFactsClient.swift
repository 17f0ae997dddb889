import Dispatch
import EcodexCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Looks products up in the Open Food Facts product API (v2) over HTTPS.
///
/// Only used when the shopper allowed the network (`--online` or `online = yes`): the
/// wiring never builds one otherwise, and building one opens nothing — the first
/// connection is made by the first lookup. Only the barcode is sent, in the URL path;
/// no cookies, no cache, no image or label text.
///
/// The answer comes within `budget` (3.5 s) or not at all: up to 3 attempts, each
/// limited to what is left of the budget (and at most `attemptTimeout`), retried after
/// an exponential backoff on a timeout, a lost connection, a 5xx or a 429. A body over
/// `maxBodyBytes` is cut off and rejected; JSON is decoded defensively.
public final class OpenFoodFactsClient: ProductSource, @unchecked Sendable {
    public static let defaultBaseURL = "https://world.openfoodfacts.org"
    public static let sourceLabel = "from Open Food Facts"
    /// Label languages Ecodex reads, asked for after the product's main ingredient text.
    static let languages = ["en", "de", "fr", "es", "it", "nl"]

    public let baseURL: URL
    public var budget: TimeInterval = 3.5
    public var attemptTimeout: TimeInterval = 2.0
    public var maxAttempts = 3
    public var backoff: TimeInterval = 0.25
    public var maxBodyBytes = 2 << 20
    /// Waits between attempts; tests may replace it.
    var sleep: (TimeInterval) -> Void = { if $0 > 0 { usleep(UInt32($0 * 1_000_000)) } }

    /// `baseURL` defaults to Open Food Facts; `ECODEX_OFF_URL` overrides it (tests point it
    /// at a local server). Plain `http` is accepted only for a loopback address.
    ///
    /// - Throws: `network_error` for a base URL that is not https (or loopback http).
    public init(baseURL: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let text = baseURL ?? environment["ECODEX_OFF_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultBaseURL
        guard let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text), let scheme = url.scheme?.lowercased(),
              let host = url.host?.lowercased() else {
            throw EcodexError.network("The Open Food Facts address \"\(text)\" is not a valid URL.")
        }
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]"
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw EcodexError.network("Ecodex only talks to Open Food Facts over HTTPS. Use an https:// address.",
                                      detail: text)
        }
        self.baseURL = url
    }

    /// The request for `barcode`: only the fields Ecodex needs.
    func url(for barcode: String) -> URL {
        let fields = ["code", "product_name", "ingredients_text"] + Self.languages.map { "ingredients_text_\($0)" }
        let digits = barcode.filter(\.isNumber)
        return URL(string: "\(baseURL.absoluteString)/api/v2/product/\(digits).json?fields=\(fields.joined(separator: ","))")!
    }

    /// The product, or nil when Open Food Facts does not know it or has no ingredient text for it.
    ///
    /// - Throws: `network_error` when no usable answer came within the budget.
    public func product(barcode: String) throws -> Product? {
        let deadline = Date().addingTimeInterval(budget)
        var lastProblem = ""
        var attempt = 0
        attempts: while attempt < maxAttempts {
            attempt += 1
            let left = deadline.timeIntervalSinceNow
            guard left > 0.05 else { break }
            let outcome = fetch(url(for: barcode), timeout: min(left, attemptTimeout))
            switch outcome {
            case .body(let status, let data):
                if status == 404 { return try decode(data, barcode: barcode, notFoundOK: true) }
                if status == 200 { return try decode(data, barcode: barcode, notFoundOK: false) }
                if status == 429 || (500...599).contains(status) {
                    lastProblem = "HTTP \(status)"
                } else {
                    throw EcodexError.network(
                        "Open Food Facts gave an unexpected answer. Try again later, or type the ingredients with `scan text`.",
                        detail: "HTTP \(status)")
                }
            case .retryAfter(let seconds):
                lastProblem = "HTTP 429, retry after \(seconds) s"
                // Asked to wait longer than the budget allows: stop now rather than hang.
                if seconds > deadline.timeIntervalSinceNow - 0.1 { break attempts }
                sleep(seconds)
                continue
            case .tooLarge:
                throw EcodexError.network(
                    "Open Food Facts sent an answer too large to be a product. Try again later, or type the ingredients with `scan text`.",
                    detail: "body over \(maxBodyBytes) bytes")
            case .timedOut:
                lastProblem = "no answer within \(String(format: "%.1f", min(left, attemptTimeout))) s"
            case .failed(let detail):
                lastProblem = detail
            }
            guard attempt < maxAttempts else { break }
            let wait = backoff * Double(1 << (attempt - 1)) * Double.random(in: 0.8...1.2)
            guard deadline.timeIntervalSinceNow - wait > 0.1 else { break }
            sleep(wait)
        }
        if lastProblem.hasPrefix("HTTP 429") {
            throw EcodexError.network(
                "Open Food Facts is busy right now. Try again in a minute, or type the ingredients with `scan text`.",
                detail: "\(attempt) attempt(s); last: \(lastProblem)")
        }
        throw EcodexError.network(
            "Open Food Facts did not answer in time. Check the connection and try again, or type the ingredients with `scan text`.",
            detail: "\(attempt) attempt(s) within \(budget) s; last: \(lastProblem)")
    }

    /// Reads a v2 product answer: `{"status": 1, "product": {...}}`; `status` 0 means not found.
    func decode(_ data: Data, barcode: String, notFoundOK: Bool) throws -> Product? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            if notFoundOK { return nil }
            throw EcodexError.network(
                "The answer from Open Food Facts could not be read. Try again later, or type the ingredients with `scan text`.",
                detail: "not a JSON object (\(data.count) bytes)")
        }
        let status = (object["status"] as? NSNumber)?.intValue ?? (object["status"] as? String).flatMap { Int($0) }
        guard status != 0, let product = object["product"] as? [String: Any] else { return nil }
        let keys = ["ingredients_text"] + Self.languages.map { "ingredients_text_\($0)" }
        for key in keys {
            if let text = product[key] as? String {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty {
                    return Product(barcode: barcode, ingredientsText: String(trimmed.prefix(20_000)), source: Self.sourceLabel)
                }
            }
        }
        return nil
    }

    // MARK: - One attempt

    enum Outcome {
        case body(status: Int, data: Data)
        case retryAfter(TimeInterval)
        case tooLarge
        case timedOut
        case failed(String)
    }

    /// One GET with a hard deadline: the task is cancelled when `timeout` passes, so a
    /// server that never answers (or trickles a body) cannot hold the scan.
    func fetch(_ url: URL, timeout: TimeInterval) -> Outcome {
        // The clock starts before the session is made: setting up counts against the budget too.
        let until = DispatchTime.now() + timeout
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.httpCookieAcceptPolicy = .never
        config.httpShouldSetCookies = false
        config.httpCookieStorage = nil
        config.urlCache = nil
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.httpMaximumConnectionsPerHost = 1
        let collector = BodyCollector(limit: maxBodyBytes)
        let session = URLSession(configuration: config, delegate: collector, delegateQueue: nil)
        // Tearing down can wait on libcurl (a body still streaming in): never on the caller's time.
        let cleanup = Cleanup(session: session)
        defer { DispatchQueue.global().async { cleanup.run() } }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Ecodex/1.0 (offline additive scanner; barcode lookup)", forHTTPHeaderField: "User-Agent")
        let task = session.dataTask(with: request)
        cleanup.task = task
        task.resume()
        if collector.done.wait(timeout: until) == .timedOut {
            return .timedOut
        }
        return collector.outcome()
    }
}

/// Cancels one attempt's task and session, off the caller's thread.
private final class Cleanup: @unchecked Sendable {
    let session: URLSession
    var task: URLSessionTask?
    init(session: URLSession) {
        self.session = session
    }
    func run() {
        task?.cancel()
        session.invalidateAndCancel()
    }
}

/// Collects one response body up to a limit; signals `done` when the task ends.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let limit: Int
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data = Data()
    private var status = 0
    private var retryAfter: TimeInterval?
    private var tooLarge = false
    private var error: Error?

    init(limit: Int) {
        self.limit = limit
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        lock.lock()
        status = http?.statusCode ?? 0
        if status == 429, let value = http?.value(forHTTPHeaderField: "Retry-After"), let seconds = TimeInterval(value.trimmingCharacters(in: .whitespaces)) {
            retryAfter = max(0, seconds)
        }
        let declared = response.expectedContentLength
        if declared > Int64(limit) { tooLarge = true }
        let refuse = tooLarge
        lock.unlock()
        completionHandler(refuse ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        var cancel = false
        if !tooLarge {
            if self.data.count + data.count > limit {
                tooLarge = true
                self.data = Data()
                cancel = true
            } else {
                self.data.append(data)
            }
        }
        lock.unlock()
        if cancel { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        self.error = error
        lock.unlock()
        done.signal()
    }

    func outcome() -> OpenFoodFactsClient.Outcome {
        lock.lock()
        defer { lock.unlock() }
        if tooLarge { return .tooLarge }
        if let error {
            let ns = error as NSError
            if ns.domain == NSURLErrorDomain && ns.code == NSURLErrorTimedOut { return .timedOut }
            return .failed(ns.localizedDescription)
        }
        if status == 429, let retryAfter { return .retryAfter(retryAfter) }
        return .body(status: status, data: data)
    }
}
