import ArgumentParser
import EcodexCore
import EcodexOnline
import EcodexStore
import Foundation

/// Anonymous usage events (requirements §12): recorded and sent only after
/// `scan prefs set telemetry yes`, to the update server the user saved.
enum Telemetry {
    static let appVersion = EcodexVersion.program

    static let notice = """
        Ecodex privacy: photos, label text and barcodes stay on this computer.
        If you opt in (scan prefs set telemetry yes), Ecodex sends anonymous usage counts
        to your update server: scans started and completed, OCR confidence (in coarse
        buckets), how many additives and flags were found, and whether a fallback was used,
        with the app and data versions, the day, and a random install id you can reset
        (scan telemetry reset-id). Never text, images, barcodes, file names or location.
        It is off until you opt in; `scan prefs set telemetry no` turns it off again,
        and `scan telemetry show` prints exactly what is waiting to be sent.
        """

    /// Shows the notice once, on the first run at a terminal (never in scripts or pipes).
    static func noticeOnFirstInteractiveRun() {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return }
        let marker = Wiring.location(nil).directory.appendingPathComponent("privacy-notice-shown")
        guard !FileManager.default.fileExists(atPath: marker.path) else { return }
        FileHandle.standardError.write(Data((notice + "\n\n").utf8))
        try? PrivateFile.makeFolder(marker.deletingLastPathComponent())
        try? PrivateFile.createEmpty(marker.path)
    }

    /// The opted-in user's preferences, else nil: nothing below runs without the opt-in.
    private static var optedIn: PreferencesFile? {
        guard let prefs = try? Wiring.savedPreferences.get(), prefs.telemetry else { return nil }
        return prefs
    }

    /// The events of one report. Only counts and coarse buckets: nothing of the input.
    static func events(_ r: ScanReport, installID: String, day: String) -> [TelemetryEvent] {
        func event(_ name: TelemetryEvent.Name, _ value: Int? = nil) -> TelemetryEvent {
            TelemetryEvent(name: name, installID: installID, appVersion: appVersion,
                           dataVersion: TelemetryEvent.isSafeVersion(r.dataVersion) ? r.dataVersion : "unknown", day: day,
                           value: value.map { min($0, TelemetryEvent.maximumValue) })
        }
        var out = [event(.scanStarted)]
        if let ocr = r.ocr { out.append(event(.ocrConfidence, TelemetryEvent.confidenceBucket(ocr.meanConfidence))) }
        out.append(event(.additivesCount, r.additives.count))
        out.append(event(.flagsCount, r.summary.flagged))
        if r.fallbackUsed { out.append(event(.fallbackUsed)) }
        out.append(event(.scanCompleted))
        return out
    }

    /// Queues the events of a report, when the user opted in.
    static func reported(_ r: ScanReport) {
        guard optedIn != nil else { return }
        let queue = TelemetryQueue(location: Wiring.location(nil))
        let day = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        queue.append(events(r, installID: queue.installID(), day: day))
    }

    /// The time one send may take in all: `ECODEX_TELEMETRY_SECONDS` (0 to 10, for a slow
    /// link or a test), else `TelemetrySender.defaultBudget`.
    static var sendBudget: TimeInterval {
        ProcessInfo.processInfo.environment["ECODEX_TELEMETRY_SECONDS"].flatMap(TimeInterval.init)
            .map { min(max($0, 0), 10) } ?? TelemetrySender.defaultBudget
    }

    /// Sends what is queued to the saved update server, when the user opted in, within
    /// `sendBudget`; what is not accepted stays queued for the next scan.
    static func flush() {
        guard let prefs = optedIn, let server = prefs.updateServer else { return }
        let queue = TelemetryQueue(location: Wiring.location(nil))
        let events = queue.queued()
        guard !events.isEmpty else { return }
        let budget = sendBudget
        let delivery = TelemetrySender.send(events, to: server, budget: budget)
        queue.dropOldest(delivery.accepted)
        let outcome: TelemetryQueue.LastSend.Outcome = switch delivery.stopped {
        case .none where delivery.refusedStatus == nil: .sent
        case .timedOut?: .timedOut
        default: .failed
        }
        queue.record(.init(at: ISO8601DateFormatter().string(from: Date()), outcome: outcome, sent: delivery.accepted,
                           kept: events.count - delivery.accepted, budget: budget))
    }

    /// One line on the last send, for `scan telemetry show`.
    static func describe(_ last: TelemetryQueue.LastSend) -> String {
        let why = switch last.outcome {
        case .sent: "all sent"
        case .timedOut: "the server did not answer within \(last.budget) s"
        case .failed: "the server could not be reached or refused them"
        }
        return "Last send: \(last.at), \(last.sent) sent, \(last.kept) kept for the next scan (\(why))"
    }
}

struct TelemetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "telemetry",
        abstract: "Show the anonymous usage events waiting to be sent, reset the install id, or read the privacy notice.",
        subcommands: [Show.self, ResetID.self, Notice.self],
        defaultSubcommand: Show.self
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print whether telemetry is on and exactly what is queued.")
        func run() throws {
            let prefs = try PrefsCommand.load()
            let queue = TelemetryQueue(location: Wiring.location(nil))
            let events = queue.queued()
            print("Telemetry: \(prefs.telemetry ? "on" : "off (opt in with `scan prefs set telemetry yes`)")"
                  + "; sent to: \(prefs.telemetry ? prefs.updateServer ?? "nowhere (no update-server saved)" : "nowhere")")
            print("Queued events: \(events.count)")
            if let last = queue.lastSend() { print(Telemetry.describe(last)) }
            for e in events { print(String(decoding: e.json.encoded, as: UTF8.self)) }
        }
    }

    struct ResetID: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset-id", abstract: "Replace the random install id (queued events are dropped).")
        func run() throws {
            let queue = TelemetryQueue(location: Wiring.location(nil))
            queue.clear()
            queue.resetID()
            print("The install id was reset; queued events were dropped.")
        }
    }

    struct Notice: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "notice", abstract: "Print the privacy notice.")
        func run() throws { print(Telemetry.notice) }
    }
}
