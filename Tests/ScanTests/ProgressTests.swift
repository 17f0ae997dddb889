import Foundation
@testable import scan
import Testing

/// The one progress reporter: "n of N, elapsed" and a summary on a terminal's standard error,
/// nothing on a pipe, and no escape codes where the terminal takes none.
@Suite struct ProgressTests {
    /// A reporter on a fake terminal with a clock the test moves.
    final class Fake: @unchecked Sendable {
        var now = 100.0
        var written = ""
        func progress(total: Int?, environment: [String: String] = ["TERM": "xterm"], terminal: Bool = true) -> WorkProgress {
            WorkProgress("scan batch", total: total, noun: "photos", environment: environment, isTerminal: terminal,
                     clock: { self.now }, write: { self.written += $0 })
        }
    }

    @Test func countsElapsedAndSummary() {
        let fake = Fake()
        let p = fake.progress(total: 3)
        fake.now += 2; p.step("a.jpg")
        #expect(fake.written.hasSuffix("scan batch: 1 of 3 photos, 2 s · a.jpg"))
        fake.now += 0.01; p.step("b.jpg")
        #expect(!fake.written.contains("b.jpg"), "redrawn within a tenth of a second")
        fake.now += 70; p.step("c.jpg")
        #expect(fake.written.hasSuffix("scan batch: 3 of 3 photos, 1 min 12 s · c.jpg"), "the last step is always drawn")
        p.finish("1 failed")
        #expect(fake.written.hasSuffix("\r\u{1B}[Kscan batch: 3 of 3 photos in 1 min 12 s, 1 failed.\n"))
    }

    @Test(arguments: [["TERM": "dumb"], ["TERM": "xterm", "NO_COLOR": "1"]])
    func noEscapeCodesWhereTheTerminalTakesNone(_ environment: [String: String]) {
        let fake = Fake()
        let p = fake.progress(total: 2, environment: environment)
        p.step("a-long-name.jpg"); fake.now += 1; p.step("b.jpg"); p.finish()
        #expect(!fake.written.contains("\u{1B}"), "\(fake.written.debugDescription)")
        #expect(fake.written.contains("\rscan batch: 2 of 2 photos, 1 s · b.jpg"))
        #expect(fake.written.hasSuffix("scan batch: 2 of 2 photos in 1 s.\n"))
    }

    @Test func nothingWhenStandardErrorIsNoTerminal() {
        let fake = Fake()
        let p = fake.progress(total: 2, terminal: false)
        p.step("a.jpg"); p.step("b.jpg"); p.finish()
        #expect(fake.written.isEmpty)
    }

    /// Runs `scan` with standard error on a pseudo-terminal, standard output discarded;
    /// returns what the terminal showed.
    static func onTerminal(_ arguments: [String], environment: [String: String], scan: ScanBinary) throws -> (status: Int32, terminal: String) {
        let run = try scan.onTerminal(arguments, streams: [.error], unset: ["NO_COLOR"], environment: environment, timeout: 900)
        return (run.status, run.stdout)
    }

    /// The bench counts images (its Tesseract baseline on a line of its own), not both passes as one total.
    @Test func theBenchCountsImages() throws {
        let scan = ScanBinary()
        let out = scan.dataDir.appendingPathComponent("bench")
        let run = try Self.onTerminal(["bench", ScanBinary.path("goldset"), "--limit", "2", "--no-burst", "--no-render", "--out", out.path],
                                      environment: ["TERM": "xterm", "OMP_THREAD_LIMIT": "1"], scan: scan)
        #expect(run.status == 0, "\(run.terminal)")
        #expect(run.terminal.contains("scan bench: 2 of 2 images in "), "\(run.terminal)")
        #expect(!run.terminal.contains(" of 4 "), "\(run.terminal)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/tesseract") {
            #expect(run.terminal.contains("scan bench (tesseract CLI): 2 of 2 images in "), "\(run.terminal)")
        }
    }

    @Test(arguments: ["xterm", "dumb"])
    func aBatchShowsItsProgressOnATerminal(_ term: String) throws {
        let scan = ScanBinary()
        let manifest = scan.dataDir.appendingPathComponent("manifest.txt")
        try Data("\(ScanBinary.path("samples/candy-label.jpg"))\n/nonexistent/b.jpg\n".utf8).write(to: manifest)
        let run = try Self.onTerminal(["batch", "--manifest", manifest.path], environment: ["TERM": term], scan: scan)
        #expect(run.status == 10, "\(run.terminal)")
        #expect(run.terminal.contains("scan batch: 0 of 2 photos, 0 s") && run.terminal.contains("scan batch: 1 of 2 photos, ")
                && run.terminal.contains("scan batch: 2 of 2 photos, "), "\(run.terminal)")
        #expect(run.terminal.contains("scan batch: 2 of 2 photos in ") && run.terminal.contains(", 1 failed."), "\(run.terminal)")
        #expect(run.terminal.contains("\u{1B}[K") == (term != "dumb"), "\(run.terminal.debugDescription)")
        // Through a pipe, as tests and scripts run it: no progress at all.
        let piped = try scan.run(["batch", "--manifest", manifest.path])
        #expect(!piped.stderr.contains("scan batch: "), "\(piped.stderr)")
    }
}
