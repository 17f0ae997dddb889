import Foundation

/// The one progress reporter of long commands (batch, bench, several photos, a burst, a
/// product import): "n of N, elapsed" on standard error, then a one-line summary.
///
/// Drawn only when standard error is a terminal, so pipes and logs get nothing. The line is
/// redrawn in place with a carriage return; the erase-line code is used only when the
/// terminal takes codes (not under `TERM=dumb` or `NO_COLOR`), else old text is blanked with spaces.
final class WorkProgress: @unchecked Sendable {
    /// What is counted ("photos", "lines"), and the command it reports for.
    private let noun: String, command: String
    private var total: Int?
    private var done = 0
    private let enabled: Bool
    private let escapes: Bool
    private let clock: () -> Double
    private let started: Double
    private var lastDraw = -Double.infinity
    private var drawnWidth = 0
    private let write: (String) -> Void
    private let lock = NSLock()

    /// `total` nil when it is not known in advance. `clock` gives seconds (injected by tests).
    /// `printsAsItGoes`: the command prints each result on standard output as it is made, so
    /// when that is the same terminal the results are the progress (a line drawn would garble them).
    init(_ command: String, total: Int?, noun: String, printsAsItGoes: Bool = false,
         environment: [String: String] = ProcessInfo.processInfo.environment,
         isTerminal: Bool = isatty(STDERR_FILENO) == 1, clock: @escaping () -> Double = WorkProgress.monotonicSeconds,
         write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.command = command; self.total = total; self.noun = noun
        enabled = isTerminal && !Quiet.on && !(printsAsItGoes && isatty(STDOUT_FILENO) == 1)
        escapes = environment["TERM"] != "dumb" && environment["NO_COLOR"] == nil
        self.clock = clock; self.write = write
        started = clock()
    }

    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Draws the line before the first item is done (work that reports no steps, a burst).
    func start(_ detail: String = "") {
        lock.lock(); defer { lock.unlock() }
        draw(detail: detail, force: true)
    }

    /// One more item done (`item` names it on the line).
    func step(_ item: String = "") {
        lock.lock(); defer { lock.unlock() }
        done += 1
        draw(detail: item, force: done == total)
    }

    /// Progress counted by the work itself (lines of a file read so far); `detail` adds to it.
    func update(done: Int, detail: String = "") {
        lock.lock(); defer { lock.unlock() }
        self.done = done
        draw(detail: detail, force: false)
    }

    /// Clears the line and prints the summary: how many (`done`, else the steps counted), in
    /// how long, and `extra` ("2 failed").
    func finish(done count: Int? = nil, _ extra: String? = nil) {
        lock.lock(); defer { lock.unlock() }
        guard enabled else { return }
        if let count { done = count }
        clear()
        let count = total.map { "\(done) of \($0) \(noun)" } ?? "\(done) \(noun)"
        write("\(command): \(count) in \(Self.duration(clock() - started))" + (extra.map { ", \($0)" } ?? "") + ".\n")
    }

    /// The line as drawn: `scan batch: 12 of 30 photos, 8 s · label.jpg`.
    func line(detail: String) -> String {
        let count = total.map { "\(done) of \($0) \(noun)" } ?? "\(done) \(noun)"
        let tail = detail.isEmpty ? "" : " · " + String(detail.suffix(40))
        return "\(command): \(count), \(Self.duration(clock() - started))\(tail)"
    }

    /// Whole seconds under a minute, then minutes and seconds: enough to see it move.
    static func duration(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded())
        return s < 60 ? "\(s) s" : "\(s / 60) min \(s % 60) s"
    }

    private func draw(detail: String, force: Bool) {
        guard enabled else { return }
        let now = clock()
        // At most ten redraws a second: a fast batch must not spend its time on the terminal.
        guard force || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let text = line(detail: detail)
        if escapes {
            write("\r\u{1B}[K" + text)
        } else {
            write("\r" + text + String(repeating: " ", count: max(0, drawnWidth - text.count)))
        }
        drawnWidth = text.count
    }

    private func clear() {
        guard drawnWidth > 0 else { return }
        write(escapes ? "\r\u{1B}[K" : "\r" + String(repeating: " ", count: drawnWidth) + "\r")
        drawnWidth = 0
    }

    /// How many photos a manifest file lists for this run (`taken(index, path)`), read once
    /// ahead; nil for standard input or when standard error is no terminal (nothing is drawn).
    static func photosListed(in manifest: String, taken: (Int, String) -> Bool) -> Int? {
        guard manifest != "-", isatty(STDERR_FILENO) == 1, let lines = LineReader(path: manifest) else { return nil }
        var index = 0, count = 0
        while let line = lines.next() {
            let path = line.trimmingCharacters(in: .whitespaces)
            if path.isEmpty || path.hasPrefix("#") { continue }
            if taken(index, path) { count += 1 }
            index += 1
        }
        return count
    }
}
