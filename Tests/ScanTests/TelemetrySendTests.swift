import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Sending telemetry as a scan ends: a server that never answers cannot hold the exit, and
/// what was not sent stays queued, in files only their owner can read.
@Suite struct TelemetrySendTests {
    /// A loopback listener that accepts every connection and never answers.
    final class SilentListener: @unchecked Sendable {
        let port: UInt16
        private let fd: Int32
        private let lock = NSLock()
        private var connections: [Int32] = []

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(fd >= 0 && bound == 0 && listen(fd, 16) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            port = UInt16(bigEndian: address.sin_port)
            Thread.detachNewThread { [self] in
                while true {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { return }
                    self.lock.lock(); self.connections.append(client); self.lock.unlock()
                }
            }
        }

        var accepted: Int { lock.lock(); defer { lock.unlock() }; return connections.count }

        func stop() {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
            lock.lock(); connections.forEach { close($0) }; lock.unlock()
        }
    }

    /// The count `scan telemetry show` gives.
    static func queued(_ show: String) -> Int {
        show.split(separator: "\n").first { $0.hasPrefix("Queued events: ") }
            .flatMap { Int($0.dropFirst("Queued events: ".count)) } ?? 0
    }

    /// Every file mode in octal, by name, of the data folder's telemetry files.
    static func modes(_ scan: ScanBinary) -> [String: String] {
        var out: [String: String] = [:]
        for name in ["telemetry-queue.jsonl", "install-id", "telemetry-last-send"] {
            var st = stat()
            let path = scan.dataDir.appendingPathComponent(name).path
            out[name] = stat(path, &st) == 0 ? String(st.st_mode & 0o777, radix: 8) : "missing"
        }
        return out
    }

    /// With an update server that accepts and never answers, the scan prints its result and
    /// ends by itself with 0; the send stopped at the budget the test set (0.5 s, said by
    /// `telemetry show`), and the events wait for the next run. All under umask 000.
    @Test func aServerThatNeverAnswersCannotHoldTheExitAndLosesNoEvent() throws {
        let listener = try SilentListener()
        defer { listener.stop() }
        let scan = ScanBinary()
        let anyUmask = ["/bin/sh", "-c", "umask 000 && exec \"$0\" \"$@\""]
        for args in [["prefs", "set", "region", "EU"], ["prefs", "set", "update-server", "http://127.0.0.1:\(listener.port)"],
                     ["prefs", "set", "telemetry", "yes"]] {
            #expect(try scan.run(args).status == 0)
        }
        let budget = ["ECODEX_TELEMETRY_SECONDS": "0.5"]
        // The generous timeout only guards against a hang; nothing here measures time.
        let run = try scan.run(["text", "Sugar, colour: E102", "--format", "json"], environment: budget, timeout: 120, wrapper: anyUmask)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.jsonLines().first?.codes == ["E102"])
        #expect(listener.accepted >= 1, "the send was tried")

        let show = try scan.run(["telemetry", "show"])
        let queued = Self.queued(show.stdout)
        #expect(queued >= 4, "the events of the scan stay queued: \(show.stdout)")
        #expect(show.stdout.contains("0 sent, \(queued) kept for the next scan (the server did not answer within 0.5 s)"),
                "\(show.stdout)")

        // A second run adds its events to those still waiting.
        #expect(try scan.run(["text", "water", "--format", "json"], environment: budget, timeout: 120, wrapper: anyUmask).status == 0)
        #expect(Self.queued(try scan.run(["telemetry", "show"]).stdout) > queued)

        #expect(Self.modes(scan) == ["telemetry-queue.jsonl": "600", "install-id": "600", "telemetry-last-send": "600"])
    }
}
