import Foundation

/// A pause point in a `scan` process a test starts (`ECODEX_PACK_PAUSE`): the process stops at
/// the named point and says so with a file, so the test acts there whatever the machine's speed.
struct PausePoint {
    let name: String
    let gate: String

    /// A point `name` whose gate file lives in `folder` (one gate per point and process).
    init(_ name: String, in folder: URL) {
        self.name = name
        gate = folder.appendingPathComponent("gate-\(name)-\(UUID().uuidString.prefix(8))").path
    }

    /// The environment that makes `scan` stop at this point.
    var environment: [String: String] { ["ECODEX_PACK_PAUSE": "\(name):\(gate)"] }

    var isReached: Bool { FileManager.default.fileExists(atPath: gate + ".reached") }

    /// Waits until `process` stops at the point (true), or exits without reaching it (false).
    /// The hang guard only ends a wait for a process that neither arrives nor exits.
    func waitUntilReached(by process: Process, hangGuard: TimeInterval = 300) -> Bool {
        let end = Date().addingTimeInterval(hangGuard)
        while !isReached && process.isRunning && Date() < end { usleep(10_000) }
        return isReached
    }

    /// Lets the paused process go on.
    func open() {
        FileManager.default.createFile(atPath: gate, contents: nil)
    }
}
