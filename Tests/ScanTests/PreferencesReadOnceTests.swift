import Foundation
import Testing

/// A run reads the preferences file once: scan options, the network setting and telemetry
/// share one reading (counted with `strace`: opens of that file).
@Suite struct PreferencesReadOnceTests {
    @Test(arguments: [["text", "E102"], ["barcode", "4006381333931"], ["samples/barcode-only.jpg"]])
    func aScanOpensThePreferencesFileOnce(_ arguments: [String]) throws {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile) else {
            Issue.record("strace is not installed (scripts/install-deps.sh)")
            return
        }
        let scan = ScanBinary()
        let prefs = scan.dataDir.appendingPathComponent("preferences.conf")
        try "region = EU\ntelemetry = no\n".write(to: prefs, atomically: true, encoding: .utf8)
        let trace = scan.dataDir.appendingPathComponent("trace.txt")
        let args = arguments.map { $0.hasPrefix("samples/") ? ScanBinary.path($0) : $0 }
        _ = try scan.run(args, timeout: 120, wrapper: [strace, "-f", "-e", "trace=openat", "-o", trace.path])
        let opens = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("openat(") && $0.contains(prefs.path) }
        #expect(opens.count == 1, "\(arguments): \(opens)")
    }
}
