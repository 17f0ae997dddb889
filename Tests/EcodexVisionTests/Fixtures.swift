import Foundation

/// Paths the vision tests share.
enum Fixtures {
    /// The package root, found from this source file's location.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let goldsetReal = packageRoot + "/goldset/real"

    static func real(_ name: String) -> String { goldsetReal + "/" + name }

    /// A fresh temporary folder for files a test makes. It is removed when the test process
    /// exits, whether or not the test removed it itself.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "ecodex-vision-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        lock.withLock { made.append(path) }
        _ = removeAtExit
        return path
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [String] = []  // guarded by `lock`

    private static let removeAtExit: Void = {
        atexit {
            for path in Fixtures.lock.withLock({ Fixtures.made }) { try? FileManager.default.removeItem(atPath: path) }
        }
    }()
}
