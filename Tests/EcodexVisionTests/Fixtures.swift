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

    /// A fresh temporary folder for files a test makes.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "ecodex-vision-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
