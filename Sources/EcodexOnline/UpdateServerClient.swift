import EcodexCore
import Foundation

/// Asks an Ecodex update server (`ecodex-server`) which packs take this store to the
/// newest version for a region, and downloads them.
///
/// Every request goes through `PackFetcher.fetch` (and so `HTTPGet`), so the same rules hold as for a
/// pack URL the user gives: https only, plain http only for this computer. The packs
/// are verified by `PackInstaller` as any other; the server's checksum is checked
/// first, only to tell a damaged download from a refused pack.
public struct UpdateServerClient: Sendable {
    public let server: URL

    /// One pack of the chain, as `GET /v1/packs/latest` lists it.
    public struct Entry: Sendable, Equatable {
        public var version: String
        public var diffFrom: String?
        public var checksum: String
    }

    public struct Plan: Sendable, Equatable {
        /// The newest version the server has for the region.
        public var latest: String
        /// The packs to apply, oldest first; empty when up to date (or no path exists).
        public var chain: [Entry]
        /// False when the server has no chain from the installed version.
        public var complete: Bool
    }

    public init(server: String) throws {
        guard let url = URL(string: server.hasSuffix("/") ? String(server.dropLast()) : server),
              PackFetcher.isRemote(server), url.host != nil
        else { throw UpdateServerError.notAServer(URLText.redacted(server)) }
        self.server = url
    }

    /// `GET /v1/packs/latest?region=…&from=…`.
    public func plan(region: Region, from installed: String) throws -> Plan {
        let object = try getJSON("/v1/packs/latest?region=\(region.rawValue)&from=\(installed)")
        guard let latest = object["version"]?.stringValue, let chain = object["chain"]?.arrayValue else {
            throw UpdateServerError.notAPackList(URLText.redacted(server.absoluteString))
        }
        let entries = try chain.map { item throws(UpdateServerError) -> Entry in
            guard let v = item["version"]?.stringValue, let sum = item["checksum"]?.stringValue else {
                throw UpdateServerError.notAPackList(URLText.redacted(server.absoluteString))
            }
            return Entry(version: v, diffFrom: item["diff_from"]?.stringValue, checksum: sum)
        }
        return Plan(latest: latest, chain: entries, complete: object["chain_complete"] == .bool(true))
    }

    /// The pack file of `entry`: asks `GET /v1/packs/{version}` for a download URL, fetches
    /// it, and checks the bytes against the checksum the server listed.
    public func download(_ entry: Entry) throws -> [UInt8] {
        let info = try getJSON("/v1/packs/\(entry.version)")
        guard let path = info["url"]?.stringValue, let url = URL(string: path, relativeTo: server)?.absoluteURL,
              url.scheme == server.scheme, url.host == server.host
        else { throw UpdateServerError.noDownloadAddress(version: entry.version) }
        let bytes = try PackFetcher.fetch(url.absoluteString)
        guard PackFile.checksum(bytes) == entry.checksum else {
            throw UpdateServerError.damagedDownload(version: entry.version)
        }
        return bytes
    }

    private func getJSON(_ path: String) throws -> JSONValue {
        let bytes = try PackFetcher.fetch(server.absoluteString + path)
        guard let json = try? JSONValue.parse(bytes), json.objectValue != nil else {
            throw UpdateServerError.notJSON(URLText.redacted(server.absoluteString + path))
        }
        return json
    }
}

/// Why the update server's answer could not be used. Every case is an `update_error`
/// (retrying will not change it); a download that failed is a `PackFetchError`.
public enum UpdateServerError: ClassifiedError, Equatable {
    /// The saved address is not an http(s) URL with a host (`address` redacted).
    case notAServer(String)
    /// `GET /v1/packs/latest` did not answer with a pack list.
    case notAPackList(String)
    /// An answer that is not a JSON object.
    case notJSON(String)
    /// `GET /v1/packs/{version}` gave no usable download address on the same server.
    case noDownloadAddress(version: String)
    /// The downloaded bytes differ from the checksum the server listed.
    case damagedDownload(version: String)

    public var errorClass: ErrorClass { .update }

    public var description: String {
        switch self {
        case .notAServer(let a): "not an update server address: \(a)"
        case .notAPackList(let a): "not a pack list: \(a)"
        case .notJSON(let a): "not JSON: \(a)"
        case .noDownloadAddress(let v): "no download address for \(v)"
        case .damagedDownload(let v): "checksum differs for \(v)"
        }
    }
}
