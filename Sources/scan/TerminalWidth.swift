import EcodexCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How wide terminal text is wrapped. On a terminal: `COLUMNS` when set, else the terminal's
/// own width (TIOCGWINSZ), kept within `range`. Piped or saved output keeps the renderer's
/// fixed width, so scripts and saved results read the same on every machine.
enum TerminalWidth {
    /// Narrower wraps every word; wider lines are hard to read.
    static let range = 30...120

    static func columns(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        let fixed = TextRenderer().width
        guard isatty(STDOUT_FILENO) == 1 else { return fixed }
        var size = winsize()
        let measured = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 ? Int(size.ws_col) : 0
        let columns = environment["COLUMNS"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? measured
        guard columns > 0 else { return fixed }
        return min(range.upperBound, max(range.lowerBound, columns))
    }
}
