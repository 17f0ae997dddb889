import EcodexCore
import Foundation

/// The opted-in user's usage events, kept in the data folder until they are sent.
///
/// `telemetry-queue.jsonl` holds one event per line, at most `capacity` (the
/// oldest are dropped first); `install-id` holds the random id, which `resetID()`
/// replaces; `telemetry-last-send` says how the last send went. All three are the
/// user's own (0600, through `DataFolder`). Nothing here is written unless the caller
/// has the user's opt-in.
public struct TelemetryQueue: Sendable {
    public let directory: URL
    public static let capacity = 500

    public init(location: StoreLocation) {
        directory = location.directory
    }

    var queuePath: URL { directory.appendingPathComponent("telemetry-queue.jsonl") }
    var idPath: URL { directory.appendingPathComponent("install-id") }
    var lastSendPath: URL { directory.appendingPathComponent("telemetry-last-send") }

    /// How the last send went: when, how many events left, how many stayed, and why it stopped.
    public struct LastSend: Codable, Sendable, Equatable {
        public enum Outcome: String, Codable, Sendable {
            /// Every queued event was accepted.
            case sent
            /// The server did not answer within the send's time budget.
            case timedOut = "timed-out"
            /// No connection, a refused address or answer.
            case failed
        }
        /// ISO 8601, UTC, to the second.
        public var at: String
        public var outcome: Outcome
        public var sent: Int
        public var kept: Int
        /// The send's time budget, in seconds.
        public var budget: Double

        public init(at: String, outcome: Outcome, sent: Int, kept: Int, budget: Double) {
            (self.at, self.outcome, self.sent, self.kept, self.budget) = (at, outcome, sent, kept, budget)
        }
    }

    /// The install id, made (32 random hex digits) the first time it is asked for.
    public func installID() -> String {
        if let text = try? String(contentsOf: idPath, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if TelemetryEvent.isInstallID(id) {
                DataFolder.makePrivate(idPath.path)
                return id
            }
        }
        return resetID()
    }

    /// Replaces the install id with a new random one; returns it.
    @discardableResult
    public func resetID() -> String {
        var generator = SystemRandomNumberGenerator()
        let id = Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try? DataFolder.prepare(directory)
        try? DataFolder.writeAtomically(Data((id + "\n").utf8), to: idPath)
        return id
    }

    /// The queued events, oldest first.
    public func queued() -> [TelemetryEvent] {
        guard let text = try? String(contentsOf: queuePath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONValue.parse(Array(line.utf8))).flatMap { try? TelemetryEvent(json: $0) }
        }
    }

    /// Drops every queued event.
    public func clear() {
        try? FileManager.default.removeItem(at: queuePath)
        try? FileManager.default.removeItem(at: lastSendPath)
    }

    /// Adds events, keeping the newest `capacity`.
    public func append(_ events: [TelemetryEvent]) {
        guard !events.isEmpty else { return }
        let all = (queued() + events).suffix(Self.capacity)
        write(Array(all))
    }

    private func write(_ events: [TelemetryEvent]) {
        try? DataFolder.prepare(directory)
        let text = events.map { String(decoding: $0.json.encoded, as: UTF8.self) + "\n" }.joined()
        try? DataFolder.writeAtomically(Data(text.utf8), to: queuePath)
    }

    /// Drops the `count` oldest events (those a server accepted).
    public func dropOldest(_ count: Int) {
        guard count > 0 else { return }
        write(Array(queued().dropFirst(count)))
    }

    /// Records how a send went, for `lastSend()`.
    public func record(_ send: LastSend) {
        guard let data = try? JSONEncoder().encode(send) else { return }
        try? DataFolder.prepare(directory)
        try? DataFolder.writeAtomically(data + Data("\n".utf8), to: lastSendPath)
    }

    /// How the last send went, when one was recorded.
    public func lastSend() -> LastSend? {
        (try? Data(contentsOf: lastSendPath)).flatMap { try? JSONDecoder().decode(LastSend.self, from: $0) }
    }
}
