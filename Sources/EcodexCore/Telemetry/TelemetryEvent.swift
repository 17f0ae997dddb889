import Foundation

/// One anonymous usage event (requirements §12): what the app did, never what it read.
///
/// The schema is closed: a name from `Name`, a random install id, the app and data
/// versions, the day (no time of day), and for some events one small number.
/// There is no field that could carry label text, a barcode, a file name, an
/// image or a place, and the server refuses any object with another member.
///
/// ```
/// {"app_version":"0.9.0","data_version":"2026.11.22","day":"2026-11-23","install_id":"<32 hex>","name":"flags_count","value":2}
/// ```
public struct TelemetryEvent: Sendable, Equatable {
    public enum Name: String, Sendable, CaseIterable {
        case scanStarted = "scan_started", scanCompleted = "scan_completed", ocrConfidence = "ocr_confidence"
        case additivesCount = "additives_count", flagsCount = "flags_count", fallbackUsed = "fallback_used"
    }

    public var name: Name
    public var installID: String
    public var appVersion: String
    public var dataVersion: String
    /// `YYYY-MM-DD` in UTC.
    public var day: String
    /// `ocr_confidence`: the bucket's lower bound (0, 50, 70, 85); counts: capped at `maximumValue`; else nil.
    public var value: Int?

    public static let maximumValue = 100
    /// A batch larger than this many bytes is refused (the client sends at most `maximumBatch` events).
    public static let maximumBodyBytes = 16 * 1024
    public static let maximumBatch = 50

    public init(name: Name, installID: String, appVersion: String, dataVersion: String, day: String, value: Int? = nil) {
        self.name = name
        self.installID = installID
        self.appVersion = appVersion
        self.dataVersion = dataVersion
        self.day = day
        self.value = value
    }

    /// The bucket reported for an OCR confidence of `percent`: its coarse lower bound only.
    public static func confidenceBucket(_ percent: Double) -> Int {
        switch percent {
        case ..<50: 0
        case ..<70: 50
        case ..<85: 70
        default: 85
        }
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name.rawValue), "install_id": .string(installID), "app_version": .string(appVersion),
            "data_version": .string(dataVersion), "day": .string(day),
        ]
        if let value { object["value"] = .int(Int64(value)) }
        return .object(object)
    }

    /// Reads one event, refusing anything outside the schema.
    public init(json: JSONValue) throws(TelemetrySchemaError) {
        guard let object = json.objectValue else { throw .init("an event is not an object") }
        let allowed: Set<String> = ["name", "install_id", "app_version", "data_version", "day", "value"]
        if let extra = object.keys.first(where: { !allowed.contains($0) }) { throw .init("unknown member \"\(extra)\"") }
        guard let rawName = object["name"]?.stringValue, let name = Name(rawValue: rawName) else { throw .init("unknown event name") }
        guard let id = object["install_id"]?.stringValue, Self.isInstallID(id) else { throw .init("install_id is not 32 hex digits") }
        guard let app = object["app_version"]?.stringValue, Self.isVersion(app),
              let data = object["data_version"]?.stringValue, Self.isVersion(data)
        else { throw .init("app_version and data_version must be short version strings") }
        guard let day = object["day"]?.stringValue, Self.isDay(day) else { throw .init("day must be YYYY-MM-DD") }
        var value: Int?
        if let raw = object["value"] {
            guard let v = raw.intValue, (0...Int64(Self.maximumValue)).contains(v) else { throw .init("value must be 0…\(Self.maximumValue)") }
            value = Int(v)
        }
        let takesValue: Set<Name> = [.ocrConfidence, .additivesCount, .flagsCount]
        guard (value != nil) == takesValue.contains(name) else { throw .init("\(rawName) \(value == nil ? "needs" : "takes no") value") }
        if name == .ocrConfidence, let value, ![0, 50, 70, 85].contains(value) { throw .init("ocr_confidence must be a bucket") }
        self.init(name: name, installID: id, appVersion: app, dataVersion: data, day: day, value: value)
    }

    /// A batch as the client sends it: `{"events":[…]}`.
    public static func encodeBatch(_ events: [TelemetryEvent]) -> [UInt8] {
        JSONValue.object(["events": .array(events.map(\.json))]).encoded
    }

    /// Reads a batch, refusing the whole of it when its size, form or any event is outside the schema.
    public static func decodeBatch(_ bytes: [UInt8]) throws(TelemetrySchemaError) -> [TelemetryEvent] {
        guard bytes.count <= maximumBodyBytes else { throw .init("the batch is over \(maximumBodyBytes) bytes") }
        guard let json = try? JSONValue.parse(bytes), let object = json.objectValue, object.count == 1,
              let events = object["events"]?.arrayValue
        else { throw .init("the body is not {\"events\":[…]}") }
        guard (1...maximumBatch).contains(events.count) else { throw .init("a batch has 1…\(maximumBatch) events") }
        var out: [TelemetryEvent] = []
        for event in events { out.append(try TelemetryEvent(json: event)) }
        return out
    }

    public static func isInstallID(_ s: String) -> Bool {
        s.utf8.count == 32 && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    public static func isSafeVersion(_ s: String) -> Bool { isVersion(s) }

    static func isVersion(_ s: String) -> Bool {
        (1...32).contains(s.utf8.count) && s.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B
        }
    }

    static func isDay(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 10 && u[4] == 0x2D && u[7] == 0x2D
            && u.enumerated().allSatisfy { i, c in i == 4 || i == 7 || (0x30...0x39).contains(c) }
    }
}

/// Why a telemetry body was refused (the server answers 400 with it).
public struct TelemetrySchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
