import Foundation

/// Where Ecodex may send a request or connect in plain text: the one owner of the https rule.
///
/// https anywhere; plain http (or an unencrypted database connection) only to this computer,
/// for tests and local mirrors. A redirect keeps the rule of the address it came from.
public enum URLPolicy {
    /// The loopback names plain text may go to. Only these: 127.0.0.2 and friends are
    /// loopback too, but nothing legitimate serves updates there.
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
    }

    /// True when `url` may be fetched at all: https, or http to a loopback name.
    public static func isAllowed(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return false }
        return scheme == "https" || (scheme == "http" && isLoopback(host))
    }

    /// `isAllowed` for an address as typed; false when it is not an address.
    public static func isAllowed(_ text: String) -> Bool {
        URL(string: text.trimmingCharacters(in: .whitespaces)).map(isAllowed) ?? false
    }

    /// True when a redirect from `from` to `to` keeps the rules: the target is allowed on its
    /// own, an https address only leads to https, and loopback http only to loopback.
    public static func mayRedirect(from: URL, to: URL) -> Bool {
        guard isAllowed(to) else { return false }
        let fromScheme = from.scheme?.lowercased(), toScheme = to.scheme?.lowercased()
        if fromScheme == "https" { return toScheme == "https" }
        return isLoopback(to.host ?? "")
    }
}
