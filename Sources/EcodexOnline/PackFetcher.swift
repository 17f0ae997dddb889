import EcodexCore
import Foundation

/// Reads a pack file from a path, a `file://` URL, or an `https://` URL.
///
/// The network is used only when the source is an http(s) URL the user gave, through
/// `HTTPGet` (https only, or plain http to this computer for tests and local mirrors;
/// redirects held to the same rule; at most `maximumSize` bytes within `downloadSeconds`).
/// A local source must be a regular file: a FIFO or a device is refused, never read.
public enum PackFetcher {
    /// Largest pack accepted, on disk or downloaded (the full base pack is a few megabytes).
    public static let maximumSize = PackFile.maximumBytes
    /// The whole download's time limit, in seconds: connect, redirects and body.
    public static let downloadSeconds: TimeInterval = 120

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
    /// - Throws: `update_error` for a missing, unreadable, oversized or non-regular local
    ///   file and for an address that is not https; `network_error` when a remote pack
    ///   cannot be downloaded within the limits.
    public static func fetch(_ source: String, seconds: TimeInterval = downloadSeconds) throws -> [UInt8] {
        if let path = localPath(source) {
            return try InputFile.read(path, role: .pack, limit: maximumSize)
        }
        let shown = URLText.redacted(source)
        guard let url = URL(string: source), url.host != nil else {
            throw PackFetchError.notASource(shown)
        }
        guard URLPolicy.isAllowed(url) else {
            throw PackFetchError.notHTTPS(shown)
        }
        switch HTTPGet.get(url, limits: HTTPGet.Limits(bytes: maximumSize, seconds: seconds)) {
        case .success(let answer) where (200..<300).contains(answer.status):
            return Array(answer.body)
        case .success(let answer):
            throw PackFetchError.httpStatus(answer.status, url: shown)
        case .failure(.tooLarge(let limit)):
            throw PackFetchError.tooLarge(url: shown, limit: limit)
        case .failure(.timedOut(let seconds)):
            throw PackFetchError.timedOut(seconds: Int(seconds), url: shown)
        case .failure(let rule) where rule.brokeARule:
            throw PackFetchError.refusedRedirect(detail: "\(rule)")
        case .failure(let other):
            throw PackFetchError.failed(host: url.host ?? "", detail: "\(other)")
        }
    }
}
