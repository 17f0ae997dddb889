import Foundation
import Testing

/// What people expect of a command line: -o/--output, -q/--quiet, completions with values,
/// `scan -` for a photo on standard input, and a `history clear` that asks first.
@Suite struct ConventionTests {
    let scan = ScanBinary()

    @Test func outputGoesToTheFileWhole() throws {
        let file = scan.dataDir.appendingPathComponent("out/result.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: file)
        let run = try scan.run(["text", "Sugar, E102", "--format", "json", "-o", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.hasPrefix("{") && written.contains("\"E102\""), "\(written)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["result.json"])
        let refused = try scan.run(["code", "E330", "--output", "/nonexistent/folder/x.txt"])
        #expect(refused.status == 64 && refused.stderr.contains("Cannot write the result to /nonexistent/folder/x.txt"), "\(refused.stderr)")
    }

    @Test func quietKeepsNotesOffStandardError() throws {
        try Data("colour = blue\n".utf8).write(to: scan.dataDir.appendingPathComponent("preferences.conf"))
        let loud = try scan.run(["code", "E330"])
        let quiet = try scan.run(["code", "E330", "-q"])
        #expect(loud.status == 0 && quiet.status == 0)
        #expect(loud.stderr.contains("warning:"), "\(loud.stderr)")
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout == loud.stdout)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsOfferTheValuesOfRegionDietAndAvoid(_ shell: String) throws {
        let run = try scan.run(["--generate-completion-script", shell])
        #expect(run.status == 0, "\(run.stderr)")
        for value in ["IN", "halal", "sulphites", "shellfish"] { #expect(run.stdout.contains(value), "\(shell): \(value)") }
    }

    @Test func aDashReadsThePhotoFromStandardInput() throws {
        let photo = try Data(contentsOf: URL(fileURLWithPath: ScanBinary.path("samples/candy-label.jpg")))
        let run = try scan.run(["-", "--format", "json"], stdin: photo, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.jsonLines().first?.codes.contains("E102") == true, "\(run.stdout)")
        let empty = try scan.run(["-"], stdin: Data())
        #expect(empty.status == 10, "\(empty.stderr)")
    }

    @Test func historyClearAsksOnATerminalAndNeedsYesElsewhere() throws {
        #expect(try scan.run(["text", "E102"]).status == 0)
        let refused = try scan.run(["history", "clear"])
        #expect(refused.status == 64 && refused.stderr.contains("--yes") && refused.stderr.contains("Usage: scan history clear"),
                "\(refused.stderr)")
        let declined = try Self.onTerminal(["history", "clear"], answer: "n\n", scan: scan)
        #expect(declined.contains("Delete all saved results? [y/N]") && declined.contains("Nothing was deleted."), "\(declined)")
        #expect(try scan.run(["history"]).stdout.contains("#1"))
        let yes = try scan.run(["history", "clear", "--yes"])
        #expect(yes.status == 0 && yes.stdout.contains("History cleared."))
        #expect(try scan.run(["history"]).stdout.contains("No scans yet."))
    }

    /// The committed manual page (docs/cli.md says how to regenerate it) is not behind the options.
    @Test func theManualPageNamesEveryOptionOfAScan() throws {
        let page = try String(contentsOfFile: ScanBinary.path("docs/man/scan.1"), encoding: .utf8)
        let help = try scan.run(["image", "--help"])
        let options = Set(help.stdout.matches(of: /--([a-z][a-z-]+)/).map { String($0.1) }).subtracting(["help"])
        #expect(options.count > 10 && options.contains("output") && options.contains("quiet"), "\(options)")
        for option in options {
            #expect(page.contains("Fl -\(option)") || page.contains(", -\(option)"), "--\(option) is not in docs/man/scan.1")
        }
    }

    /// Runs `scan` wholly on a pseudo-terminal, typing `answer`; returns what the terminal showed.
    static func onTerminal(_ arguments: [String], answer: String, scan: ScanBinary) throws -> String {
        try scan.onTerminal(arguments, streams: [.input, .output, .error], answer: answer, unset: ["NO_COLOR"]).stdout
    }
}
