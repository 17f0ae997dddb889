import ArgumentParser
import EcodexCore
import Foundation
import Synchronization

struct PrefsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefs",
        abstract: "Show or change your saved preferences (region, diet, sensitivities, child mode).",
        discussion: """
            Saved in $XDG_CONFIG_HOME/ecodex/preferences.conf (or ECODEX_CONFIG). Flags on a scan override them.
            These commands run even when a line of the file is bad, so they can repair it.
            """,
        subcommands: [Show.self, Set.self, Reset.self],
        defaultSubcommand: Show.self
    )

    static var url: URL { PreferencesFile.defaultURL(environment: ProcessInfo.processInfo.environment) }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the saved preferences.")
        @Option(help: "Output format: text or json.") var format: DataFormat = .text
        func run() throws {
            let reading = try PreferencesFile.read(from: PrefsCommand.url)
            PrefsCommand.report(reading.problems)
            if format == .json { return print(JSONRenderer.encode(JSONOutput.Prefs(reading.file, file: PrefsCommand.url))) }
            print("# \(PrefsCommand.url.path)")
            print(reading.file.serialized(), terminator: "")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Save one preference: region EU, diet vegan,halal, avoid sulphites, strict_diet yes, child yes, online yes, update-server https://…, telemetry yes.")
        @Argument(help: "One of: region, diet, avoid, strict_diet, child, online, update-server, telemetry.") var key: String
        @Argument(help: "The value; lists are comma-separated; `none` or `auto` clears.") var value: String
        func run() throws {
            // Read leniently: this is how a shopper repairs a file with a bad line.
            let reading = try PreferencesFile.read(from: PrefsCommand.url)
            var prefs = reading.file
            do { try prefs.set(key, value) } catch let e as PreferencesError { throw ValidationError(Failure.message(of: e)) }
            try prefs.save(to: PrefsCommand.url)
            PrefsCommand.report(reading.problems, dropped: true)
            print(prefs.serialized(), terminator: "")
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Forget all saved preferences.")
        func run() throws {
            try? FileManager.default.removeItem(at: PrefsCommand.url)
            print("Preferences cleared.")
        }
    }

    /// The saved preferences for a command that uses them: an unknown key is reported (once
    /// per run) and skipped; a line that cannot be used stops the command, naming file and line.
    static func load() throws -> PreferencesFile {
        let reading = try PreferencesFile.read(from: url)
        if let stop = reading.stop { throw stop }
        if reported.withLock({ done in defer { done = true }; return !done }) { report(reading.unknownKeys) }
        return reading.file
    }

    private static let reported = Mutex(false)

    /// One warning line on standard error per line of the file that was not used; `dropped`
    /// when the file was just rewritten without them (their text is shown so nothing is lost unseen).
    static func report(_ problems: [PreferencesError], dropped: Bool = false) {
        for problem in problems {
            var line = "scan: warning: \(Failure.message(of: problem))"
            if dropped, case .atLine(_, _, let text, _) = problem { line += " Removed from the file: \(text)" }
            Quiet.note(line)
        }
    }
}
