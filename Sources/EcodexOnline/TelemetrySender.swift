import EcodexCore
import Foundation

/// Sends opted-in usage events to the update server's `POST /v1/telemetry`, through
/// `HTTPGet.post`: the same https rule, redirect rule and bounds as every download.
public enum TelemetrySender {
    /// The answer of one batch may be at most this big; the server answers with a few bytes.
    static let answerBytes = 16 * 1024

    /// Posts `events` in batches of `TelemetryEvent.maximumBatch`, oldest first, and stops at
    /// the first batch not accepted (offline, refused). Returns how many events were accepted,
    /// so the caller drops exactly those from its queue.
    public static func send(_ events: [TelemetryEvent], to server: String, seconds: TimeInterval = 5) -> Int {
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        guard let url = URL(string: base + "/v1/telemetry"), url.host != nil, URLPolicy.isAllowed(url) else { return 0 }
        var sent = 0
        while sent < events.count {
            let batch = Array(events[sent..<min(events.count, sent + TelemetryEvent.maximumBatch)])
            let answer = HTTPGet.post(url, body: Data(TelemetryEvent.encodeBatch(batch)),
                                      limits: HTTPGet.Limits(bytes: answerBytes, seconds: seconds),
                                      headers: ["Content-Type": "application/json"])
            guard case .success(let a) = answer, (200..<300).contains(a.status) else { break }
            sent += batch.count
        }
        return sent
    }
}
