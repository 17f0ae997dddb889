import Dispatch
import EcodexCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one HTTP GET Ecodex makes. It owns the rules every download follows:
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

    /// True when `url` may be fetched at all: https, or http to a loopback name.
    public static func isAllowed(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return false }
        return scheme == "https" || (scheme == "http" && isLoopback(host))
    }

    /// The loopback names plain http may go to. Only these: 127.0.0.2 and friends are
    /// loopback too, but nothing legitimate serves updates there.
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
    }

    /// True when a redirect from `from` to `to` keeps the rules: the target is allowed on its
    /// own, an https address only leads to https, and loopback http only to loopback.
    public static func mayRedirect(from: URL, to: URL) -> Bool {
        guard isAllowed(to) else { return false }
        let fromScheme = from.scheme?.lowercased(), toScheme = to.scheme?.lowercased()
        if fromScheme == "https" { return toScheme == "https" }
        return isLoopback(to.host ?? "")
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
        // The clock starts before the session is made: setting up counts against the limit too.
        let until = DispatchTime.now() + limits.seconds
        guard isAllowed(url) else { return .failure(.refusedAddress(URLText.redacted(url.absoluteString))) }
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = limits.seconds
        config.timeoutIntervalForResource = limits.seconds
        config.httpCookieAcceptPolicy = .never
        config.httpShouldSetCookies = false
        config.httpCookieStorage = nil
        config.urlCredentialStorage = nil
        config.urlCache = nil
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.httpMaximumConnectionsPerHost = 1
        let transfer = Transfer(origin: url, limits: limits)
        let session = URLSession(configuration: config, delegate: transfer, delegateQueue: nil)
        // Tearing down can wait on libcurl (a body still streaming in): never on the caller's time.
        let cleanup = Cleanup(session: session)
        defer { DispatchQueue.global().async { cleanup.run() } }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: limits.seconds)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: request)
        cleanup.task = task
        task.resume()
        if transfer.done.wait(timeout: until) == .timedOut {
            return .failure(.timedOut(seconds: limits.seconds))
        }
        return transfer.result()
    }
}

/// Cancels one GET's task and session, off the caller's thread.
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

/// One transfer: checks each redirect, counts the body as it streams, signals `done` when
/// the task ends. The first rule broken is kept and reported instead of the task's error.
private final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let limits: HTTPGet.Limits
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var current: URL
    private var redirects = 0
    private var data = Data()
    private var status = 0
    private var retryAfter: TimeInterval?
    private var broken: HTTPGet.Failure?
    private var error: Error?

    init(origin: URL, limits: HTTPGet.Limits) {
        current = origin
        self.limits = limits
    }

    /// For tests: a pause between recording a broken rule and answering URLSession, to widen
    /// the window in which a caller woken too early would cancel the task.
    nonisolated(unsafe) static var pauseBeforeAnswering: TimeInterval = 0

    /// Records the first broken rule; true when this call broke it first. The delegate then
    /// answers URLSession's completion handler (if it has one) and only then wakes the caller
    /// (`wake`): the caller's cleanup cancels the task, and FoundationNetworking traps when a
    /// task is cancelled while the answer to a redirect or response callback is still due.
    /// The caller is still woken long before the task ends (cancelling can take long while
    /// libcurl streams in), since the answer is already known.
    private func breakRule(_ failure: HTTPGet.Failure) -> Bool {
        data = Data()
        guard broken == nil else { return false }
        broken = failure
        return true
    }

    private func wake(_ first: Bool) {
        if first { done.signal() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        lock.lock()
        redirects += 1
        var follow = false, first = false
        if let next = request.url {
            if redirects > limits.redirects {
                first = breakRule(.tooManyRedirects(limits.redirects))
            } else if !HTTPGet.mayRedirect(from: current, to: next) {
                first = breakRule(.refusedRedirect(from: URLText.redacted(current.absoluteString),
                                                  to: URLText.redacted(next.absoluteString)))
            } else {
                current = next
                follow = true
            }
        }
        lock.unlock()
        if !follow, Self.pauseBeforeAnswering > 0 { Thread.sleep(forTimeInterval: Self.pauseBeforeAnswering) }
        // nil ends the task with the 3xx as its answer (which `result()` never hands on); no
        // cancel here: it would race the completion handler's own step on the task's queue.
        completionHandler(follow ? request : nil)
        wake(first)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        lock.lock()
        status = http?.statusCode ?? 0
        if let value = http?.value(forHTTPHeaderField: "Retry-After"),
           let seconds = TimeInterval(value.trimmingCharacters(in: .whitespaces)) {
            retryAfter = max(0, seconds)
        }
        let first = response.expectedContentLength > Int64(limits.bytes) && breakRule(.tooLarge(limit: limits.bytes))
        // A final answer that is still a redirect was one we refused to follow.
        let refuse = broken != nil
        lock.unlock()
        completionHandler(refuse ? .cancel : .allow)
        wake(first)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        var cancel = broken != nil, first = false
        if !cancel {
            if self.data.count + data.count > limits.bytes {
                first = breakRule(.tooLarge(limit: limits.bytes))
                cancel = true
            } else {
                self.data.append(data)
            }
        }
        lock.unlock()
        // No completion handler is due here: wake the caller first, since cancelling waits for
        // the task's queue, which may be busy taking in the body.
        wake(first)
        if cancel { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        self.error = error
        lock.unlock()
        done.signal()
    }

    func result() -> Result<HTTPGet.Response, HTTPGet.Failure> {
        lock.lock()
        defer { lock.unlock() }
        if let broken { return .failure(broken) }
        if let error {
            let ns = error as NSError
            if ns.domain == NSURLErrorDomain && ns.code == NSURLErrorTimedOut { return .failure(.timedOut(seconds: limits.seconds)) }
            if ns.domain == NSURLErrorDomain && ns.code == NSURLErrorHTTPTooManyRedirects {
                return .failure(.tooManyRedirects(limits.redirects))
            }
            return .failure(.transport(ns.localizedDescription))
        }
        // A redirect we declined ends the task with the 3xx itself: never hand that on as an answer.
        if (300...399).contains(status) { return .failure(.refusedRedirect(from: URLText.redacted(current.absoluteString), to: "?")) }
        return .success(HTTPGet.Response(status: status, body: data, retryAfter: retryAfter))
    }
}

/// For tests (`@testable import`): sets the pause a transfer takes between recording a broken
/// rule and answering URLSession (`Transfer.pauseBeforeAnswering`).
enum HTTPGetTransferHook {
    static func pause(_ seconds: TimeInterval) { Transfer.pauseBeforeAnswering = seconds }
}
