import EcodexCore
import Foundation

/// Sends opted-in usage events to the update server's `POST /v1/telemetry`, through
/// `HTTPGet.post`: the same https rule, redirect rule and bounds as every download.
public enum TelemetrySender {
    /// The answer of one batch may be at most this big; the server answers with a few bytes.
    static let answerBytes = 16 * 1024

    /// The time all batches of one send get together, connect included, by default: a send
    /// happens as a scan ends, and a server that does not answer must not hold the exit.
    public static let defaultBudget: TimeInterval = 0.3

    /// What one send did.
    public struct Delivery: Sendable, Equatable {
        /// Events the server accepted, oldest first: the caller drops exactly these from its queue.
        public var accepted: Int
        /// Why the send stopped before the last batch was accepted; nil when all were.
        public var stopped: HTTPGet.Failure?
        /// The server answered a batch with a status other than 2xx.
        public var refusedStatus: Int?
    }

    /// Posts `events` in batches of `TelemetryEvent.maximumBatch`, oldest first, all within
    /// `budget` seconds, and stops at the first batch not accepted (offline, refused, out of time).
    public static func send(_ events: [TelemetryEvent], to server: String, budget: TimeInterval = defaultBudget) -> Delivery {
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        guard let url = URL(string: base + "/v1/telemetry"), url.host != nil, URLPolicy.isAllowed(url) else {
            return Delivery(accepted: 0, stopped: .refusedAddress(URLText.redacted(server)))
        }
        let until = Date().addingTimeInterval(budget)
        var sent = 0
        while sent < events.count {
            let left = until.timeIntervalSinceNow
            guard left > 0 else { return Delivery(accepted: sent, stopped: .timedOut(seconds: budget)) }
            let batch = Array(events[sent..<min(events.count, sent + TelemetryEvent.maximumBatch)])
            let answer = HTTPGet.post(url, body: Data(TelemetryEvent.encodeBatch(batch)),
                                      limits: HTTPGet.Limits(bytes: answerBytes, seconds: left),
                                      headers: ["Content-Type": "application/json"])
            switch answer {
            case .success(let a) where (200..<300).contains(a.status): sent += batch.count
            case .success(let a): return Delivery(accepted: sent, refusedStatus: a.status)
            case .failure(.timedOut): return Delivery(accepted: sent, stopped: .timedOut(seconds: budget))
            case .failure(let failure): return Delivery(accepted: sent, stopped: failure)
            }
        }
        return Delivery(accepted: sent)
    }
}
