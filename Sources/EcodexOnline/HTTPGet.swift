internal import CNetLibs
import EcodexCore
import Foundation

/// The one HTTP GET Ecodex makes. It owns the rules every download follows (the bytes move
/// through libcurl, loaded on the first request: `Sources/CNetLibs`):
///
/// - **Where**: `https`, or plain `http` only to this computer (127.0.0.1, ::1,
///   localhost) for tests and local mirrors. A redirect must obey the same rule as the
///   address it came from, and may not leave https once there or take loopback http
///   anywhere but loopback; at most `Limits.redirects` of them are followed.
/// - **How much**: the body is counted while it streams and the transfer is cancelled
///   the moment it passes `Limits.bytes` (a declared larger length is refused before
///   any body is read), so a server sending without a length cannot grow the process.
/// - **How long**: `Limits.seconds` bounds the whole transfer — connect, redirects and
///   every byte of the body — so a server trickling a byte at a time cannot hold a scan.
/// - **What is sent**: no cookies, no cache, no credentials kept; user info in an address
///   is never logged or shown (`URLText.redacted`).
public enum HTTPGet {
    public struct Limits: Sendable {
        /// Largest body accepted, in bytes.
        public var bytes: Int
        /// The whole transfer's time, in seconds.
        public var seconds: TimeInterval
        /// Redirects followed before giving up (default 5).
        public var redirects: Int

        public init(bytes: Int, seconds: TimeInterval, redirects: Int = 5) {
            self.bytes = bytes
            self.seconds = seconds
            self.redirects = redirects
        }
    }

    /// A complete answer (any status).
    public struct Response: Sendable {
        public var status: Int
        public var body: Data
        /// `Retry-After` in seconds, when the server sent one.
        public var retryAfter: TimeInterval?
    }

    /// Why a GET gave no complete answer.
    public enum Failure: Error, Equatable, Sendable {
        /// The address is not https (or loopback http); carries the address, redacted.
        case refusedAddress(String)
        /// A redirect broke the rules above: from and to, redacted.
        case refusedRedirect(from: String, to: String)
        case tooManyRedirects(Int)
        /// The body passed the limit (declared or counted).
        case tooLarge(limit: Int)
        /// The transfer did not finish within the limit.
        case timedOut(seconds: TimeInterval)
        /// No connection, TLS failure, reset…: the system's description.
        case transport(String)

        /// True for a broken rule (address or redirect), which retrying will not change.
        public var brokeARule: Bool {
            switch self {
            case .refusedAddress, .refusedRedirect, .tooManyRedirects: true
            default: false
            }
        }
    }

    /// GETs `url` within `limits`. `headers` are added to the request.
    public static func get(_ url: URL, limits: Limits, headers: [String: String] = [:]) -> Result<Response, Failure> {
        send(url, method: "GET", body: nil, limits: limits, headers: headers)
    }

    /// POSTs `body` to `url` under the same rules as a GET (https or loopback http, redirects
    /// held to the rule, the answer's size and the whole exchange's time bounded).
    public static func post(_ url: URL, body: Data, limits: Limits, headers: [String: String] = [:]) -> Result<Response, Failure> {
        send(url, method: "POST", body: body, limits: limits, headers: headers)
    }

    private static func send(_ url: URL, method: String, body: Data?, limits: Limits,
                             headers: [String: String]) -> Result<Response, Failure> {
        // One clock for the whole exchange: every redirect's request gets only what is left.
        let until = ContinuousClock.now + .milliseconds(Int64(limits.seconds * 1000))
        guard URLPolicy.isAllowed(url) else { return .failure(.refusedAddress(URLText.redacted(url.absoluteString))) }
        let lines = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        var current = url, method = method, body = body, redirects = 0
        while true {
            let left = until - ContinuousClock.now
            let leftMs = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            guard leftMs > 0 else { return .failure(.timedOut(seconds: limits.seconds)) }
            let answer: Transfer.Answer
            switch Transfer.run(current, method: method, body: body, headers: lines, maxBytes: limits.bytes, timeoutMs: leftMs) {
            case .success(let a): answer = a
            case .failure(.timedOut): return .failure(.timedOut(seconds: limits.seconds))
            case .failure(let failure): return .failure(failure)
            }
            guard (300...399).contains(answer.status) else {
                return .success(Response(status: answer.status, body: answer.body, retryAfter: answer.retryAfter))
            }
            // A redirect: followed here, by the rules above, never by libcurl.
            guard let next = answer.location.flatMap(URL.init(string:)) else {
                return .failure(.refusedRedirect(from: URLText.redacted(current.absoluteString), to: "?"))
            }
            redirects += 1
            if redirects > limits.redirects { return .failure(.tooManyRedirects(limits.redirects)) }
            guard URLPolicy.mayRedirect(from: current, to: next) else {
                return .failure(.refusedRedirect(from: URLText.redacted(current.absoluteString),
                                                 to: URLText.redacted(next.absoluteString)))
            }
            // As browsers do: 301, 302 and 303 after a POST fetch the new address; 307 and 308 post again.
            if method == "POST", [301, 302, 303].contains(answer.status) {
                method = "GET"
                body = nil
            }
            current = next
        }
    }
}

/// One request and its answer through libcurl (`ecx_http_send`), without following redirects.
private enum Transfer {
    struct Answer {
        var status: Int
        var body: Data
        var retryAfter: TimeInterval?
        /// Where a 3xx points, absolute.
        var location: String?
    }

    static func run(_ url: URL, method: String, body: Data?, headers: [String], maxBytes: Int,
                    timeoutMs: Int64) -> Result<Answer, HTTPGet.Failure> {
        var answer = ecx_http_answer()
        defer { ecx_http_free(&answer) }
        let payload = [UInt8](body ?? Data())
        let cHeaders = headers.map { strdup($0) }
        defer { cHeaders.forEach { free($0) } }
        let outcome = cHeaders.map { UnsafePointer($0) }.withUnsafeBufferPointer { list in
            payload.withUnsafeBytes { bytes in
                ecx_http_send(url.absoluteString, method, bytes.baseAddress, bytes.count, list.baseAddress, list.count,
                              maxBytes, Int(timeoutMs), &answer)
            }
        }
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        switch Int(outcome) {
        case Int(ECX_HTTP_DONE.rawValue):
            let location = text(&answer.location)
            let body = answer.body.map { Data(bytes: $0, count: answer.body_length) } ?? Data()
            return .success(Answer(status: answer.status, body: body,
                                   retryAfter: answer.retry_after >= 0 ? answer.retry_after : nil,
                                   location: location.isEmpty ? nil : location))
        case Int(ECX_HTTP_TOO_LARGE.rawValue): return .failure(.tooLarge(limit: maxBytes))
        case Int(ECX_HTTP_TIMED_OUT.rawValue): return .failure(.timedOut(seconds: Double(timeoutMs) / 1000))
        default: return .failure(.transport(text(&answer.error)))
        }
    }
}
