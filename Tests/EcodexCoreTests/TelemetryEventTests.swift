import EcodexCore
import Foundation
import Testing

/// The telemetry schema (requirements §12): closed, small, no room for label content.
@Suite struct TelemetryEventTests {
    static let id = String(repeating: "0f", count: 16)
    static func event(_ name: TelemetryEvent.Name, _ value: Int? = nil) -> TelemetryEvent {
        TelemetryEvent(name: name, installID: id, appVersion: "0.9.0", dataVersion: "2026.11.22", day: "2026-11-23", value: value)
    }

    @Test func aBatchRoundTrips() throws {
        let events = [Self.event(.scanStarted), Self.event(.ocrConfidence, 70), Self.event(.flagsCount, 3), Self.event(.fallbackUsed)]
        #expect(try TelemetryEvent.decodeBatch(TelemetryEvent.encodeBatch(events)) == events)
    }

    @Test(arguments: [
        (#"{"events":[]}"#, "empty"),
        (#"{"events":[{"name":"scan_started"}]}"#, "missing members"),
        (#"{"events":[{"app_version":"1","data_version":"1","day":"2026-11-23","install_id":"0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f","name":"scan_started","text":"sugar"}]}"#, "extra member"),
        (#"{"events":[{"app_version":"1","data_version":"1","day":"2026-11-23","install_id":"0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f","name":"ocr_confidence","value":73}]}"#, "not a bucket"),
        (#"{"events":[{"app_version":"1","data_version":"1","day":"2026-11-23","install_id":"0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f","name":"scan_started","value":1}]}"#, "value on an event without one"),
        (#"{"events":[{"app_version":"1","data_version":"water, sugar","day":"2026-11-23","install_id":"0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f","name":"scan_started"}]}"#, "text in a version"),
        (#"{"events":[{"app_version":"1","data_version":"1","day":"2026-11-23T10:00","install_id":"0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f","name":"scan_started"}]}"#, "time of day"),
        (#"{"events":[{"app_version":"1","data_version":"1","day":"2026-11-23","install_id":"4006381333931","name":"scan_started"}]}"#, "a barcode as id"),
        (#"{"events":[],"image":"iVBORw0KGgo="}"#, "image"),
    ])
    func outsideTheSchemaIsRefused(body: String, why: String) {
        #expect(throws: TelemetrySchemaError.self, "\(why)") { try TelemetryEvent.decodeBatch(Array(body.utf8)) }
    }

    @Test func bodiesOverTheCapAreRefused() {
        let many = Array(repeating: Self.event(.scanCompleted), count: TelemetryEvent.maximumBatch + 1)
        #expect(throws: TelemetrySchemaError.self) { try TelemetryEvent.decodeBatch(TelemetryEvent.encodeBatch(many)) }
        #expect(throws: TelemetrySchemaError.self) { try TelemetryEvent.decodeBatch(Array(repeating: 0x20, count: TelemetryEvent.maximumBodyBytes + 1)) }
    }

    @Test(arguments: [(12.0, 0), (49.9, 0), (50.0, 50), (84.9, 70), (85.0, 85), (99.0, 85)])
    func confidenceIsBucketed(percent: Double, bucket: Int) {
        #expect(TelemetryEvent.confidenceBucket(percent) == bucket)
    }
}
