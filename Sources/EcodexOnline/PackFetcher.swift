import EcodexCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a pack file from a path, a `file://` URL, or an `https://` URL.
///
/// The network is used only when the source is an http(s) URL the user gave.
/// Plain `http://` is accepted only for this computer (127.0.0.1, ::1,
/// localhost), for tests and local mirrors; everything else must be TLS
/// (Debian's OpenSSL refuses anything below TLS 1.2 by default).
public enum PackFetcher {
    /// Largest pack accepted (the full base pack is a few megabytes).
    public static let maximumSize = 64 << 20

    /// True when `source` is an http(s) URL (fetching it needs the network).
    public static func isRemote(_ source: String) -> Bool {
        let lower = source.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The local path `source` names, for plain paths and `file://` URLs; nil for remote URLs.
    public static func localPath(_ source: String) -> String? {
        if isRemote(source) { return nil }
        if source.lowercased().hasPrefix("file:") { return URL(string: source)?.path }
        return source
    }

    /// The bytes of the pack at `source`.
    ///
    /// - Throws: `update_error` for a missing or unreadable local file,
    ///   `network_error` when a remote pack cannot be downloaded.
    public static func fetch(_ source: String, timeout: TimeInterval = 30) throws -> [UInt8] {
        if let path = localPath(source) {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw EcodexError.update("Cannot read the pack file \(path). Check the path.")
            }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: maximumSize + 1)) ?? nil
            guard let data else { throw EcodexError.update("Cannot read the pack file \(path). Check the path.") }
            guard data.count <= maximumSize else { throw EcodexError.update("The file \(path) is too large to be an Ecodex pack.") }
            return Array(data)
        }
        guard let url = URL(string: source), let host = url.host?.lowercased() else {
            throw EcodexError.update("\"\(source)\" is not a pack file, folder or URL.")
        }
        let local = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host)
        guard url.scheme?.lowercased() == "https" || local else {
            throw EcodexError.update("Updates are downloaded over https only. Use an https:// address.")
        }
        return try download(url, timeout: timeout)
    }

    private static func download(_ url: URL, timeout: TimeInterval) throws -> [UInt8] {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 4
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let result = DownloadResult()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: url) { data, response, error in
            result.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, status, error) = result.get()
        if let error {
            throw EcodexError.network("The update could not be downloaded (no connection?). Try again when online.",
                                      detail: "\(url.host ?? ""): \(error.localizedDescription)")
        }
        guard let status, (200..<300).contains(status), let data else {
            throw EcodexError.network("The update server did not send the pack (HTTP \(result.get().1.map(String.init) ?? "?")). Try again later.")
        }
        guard data.count <= maximumSize else { throw EcodexError.update("The downloaded file is too large to be an Ecodex pack.") }
        return Array(data)
    }

    /// Hands the completion handler's values to the waiting thread.
    private final class DownloadResult: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var status: Int?
        private var error: Error?

        func set(data: Data?, status: Int?, error: Error?) {
            lock.lock()
            defer { lock.unlock() }
            self.data = data
            self.status = status
            self.error = error
        }

        func get() -> (Data?, Int?, Error?) {
            lock.lock()
            defer { lock.unlock() }
            return (data, status, error)
        }
    }
}
