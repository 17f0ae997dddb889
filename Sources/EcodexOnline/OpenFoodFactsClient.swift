import EcodexCore
import Foundation

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
/// `maxBodyBytes` is cut off and rejected; JSON is decoded defensively. The download rules
/// (https, redirects, size, time) are `HTTPGet`'s.
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
    /// The clock the budget is measured on; tests may replace it.
    var now: () -> Date = { Date() }

    /// `baseURL` defaults to Open Food Facts; `ECODEX_OFF_URL` overrides it (tests point it
    /// at a local server). Plain `http` is accepted only for a loopback address.
    ///
    /// - Throws: `network_error` for a base URL that is not https (or loopback http).
    public init(baseURL: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let text = baseURL ?? environment["ECODEX_OFF_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultBaseURL
        guard let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text), url.host != nil else {
            throw OpenFoodFactsError.invalidAddress(URLText.redacted(text))
        }
        guard URLPolicy.isAllowed(url) else {
            throw OpenFoodFactsError.notHTTPS(URLText.redacted(text))
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
        let deadline = now().addingTimeInterval(budget)
        var lastProblem = ""
        var attempt = 0
        attempts: while attempt < maxAttempts {
            attempt += 1
            let left = deadline.timeIntervalSince(now())
            guard left > 0.05 else { break }
            let limits = HTTPGet.Limits(bytes: maxBodyBytes, seconds: min(left, attemptTimeout))
            switch HTTPGet.get(url(for: barcode), limits: limits, headers: Self.headers) {
            case .success(let answer):
                let status = answer.status
                if status == 404 { return try decode(answer.body, barcode: barcode, notFoundOK: true) }
                if status == 200 { return try decode(answer.body, barcode: barcode, notFoundOK: false) }
                if status == 429, let seconds = answer.retryAfter {
                    lastProblem = "HTTP 429, retry after \(seconds) s"
                    // Asked to wait longer than the budget allows: stop now rather than hang.
                    if seconds > deadline.timeIntervalSince(now()) - 0.1 { break attempts }
                    sleep(seconds)
                    continue
                }
                guard status == 429 || (500...599).contains(status) else {
                    throw OpenFoodFactsError.unexpectedStatus(status)
                }
                lastProblem = "HTTP \(status)"
            case .failure(.tooLarge(let limit)):
                throw OpenFoodFactsError.tooLarge(limit: limit)
            case .failure(.timedOut(let seconds)):
                lastProblem = "no answer within \(String(format: "%.1f", seconds)) s"
            case .failure(let rule) where rule.brokeARule:
                // A redirect off https or to another host is not retried: it will not change.
                throw OpenFoodFactsError.refusedRedirect(detail: "\(rule)")
            case .failure(let other):
                lastProblem = "\(other)"
            }
            guard attempt < maxAttempts else { break }
            let wait = backoff * Double(1 << (attempt - 1)) * Double.random(in: 0.8...1.2)
            guard deadline.timeIntervalSince(now()) - wait > 0.1 else { break }
            sleep(wait)
        }
        if lastProblem.hasPrefix("HTTP 429") {
            throw OpenFoodFactsError.busy(attempts: attempt, last: lastProblem)
        }
        throw OpenFoodFactsError.timedOut(attempts: attempt, budget: budget, last: lastProblem)
    }

    static let headers = [
        "Accept": "application/json",
        "User-Agent": "Ecodex/1.0 (offline additive scanner; barcode lookup)",
    ]

    /// Reads a v2 product answer: `{"status": 1, "product": {...}}`; `status` 0 means not found.
    func decode(_ data: Data, barcode: String, notFoundOK: Bool) throws -> Product? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            if notFoundOK { return nil }
            throw OpenFoodFactsError.unreadableAnswer(bytes: data.count)
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
}
