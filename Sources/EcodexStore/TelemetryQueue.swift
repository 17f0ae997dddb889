import EcodexCore
import Foundation

/// The opted-in user's usage events, kept in the data folder until they are sent.
///
/// `telemetry-queue.jsonl` holds one event per line, at most `capacity` (the
/// oldest are dropped first); `install-id` holds the random id, which `resetID()`
/// replaces. Nothing here is written unless the caller has the user's opt-in.
public struct TelemetryQueue: Sendable {
    public let directory: URL
    public static let capacity = 500

    public init(location: StoreLocation) {
        directory = location.directory
    }

    var queuePath: URL { directory.appendingPathComponent("telemetry-queue.jsonl") }
    var idPath: URL { directory.appendingPathComponent("install-id") }

    /// The install id, made (32 random hex digits) the first time it is asked for.
    public func installID() -> String {
        if let text = try? String(contentsOf: idPath, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if TelemetryEvent.isInstallID(id) { return id }
        }
        return resetID()
    }

    /// Replaces the install id with a new random one; returns it.
    @discardableResult
    public func resetID() -> String {
        var generator = SystemRandomNumberGenerator()
        let id = Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data((id + "\n").utf8).write(to: idPath, options: .atomic)
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
    }

    /// Adds events, keeping the newest `capacity`.
    public func append(_ events: [TelemetryEvent]) {
        guard !events.isEmpty else { return }
        let all = (queued() + events).suffix(Self.capacity)
        write(Array(all))
    }

    private func write(_ events: [TelemetryEvent]) {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let text = events.map { String(decoding: $0.json.encoded, as: UTF8.self) + "\n" }.joined()
        try? Data(text.utf8).write(to: queuePath, options: .atomic)
    }

    /// Drops the `count` oldest events (those a server accepted).
    public func dropOldest(_ count: Int) {
        guard count > 0 else { return }
        write(Array(queued().dropFirst(count)))
    }
}
