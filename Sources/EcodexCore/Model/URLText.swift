/// Addresses as they may be shown or written down.
public enum URLText {
    /// `text` without the user name and password an address may carry
    /// (`https://user:pass@host/x.pack` → `https://host/x.pack`). Anything that is not an
    /// address with an authority comes back unchanged. Used before an address is logged,
    /// remembered or printed.
    public static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let authorityStart = scheme.upperBound
        let rest = text[authorityStart...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        let authority = text[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return text }
        return String(text[..<authorityStart]) + String(text[text.index(after: at)...])
    }
}
