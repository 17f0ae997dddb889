import ArgumentParser
import EcodexCore
import Foundation

struct PrefsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefs",
        abstract: "Show or change your saved preferences (region, diet, sensitivities, child mode).",
        discussion: "Saved in $XDG_CONFIG_HOME/ecodex/preferences.conf (or ECODEX_CONFIG). Flags on a scan override them.",
        subcommands: [Show.self, Set.self, Reset.self],
        defaultSubcommand: Show.self
    )

    static var url: URL { PreferencesFile.defaultURL(environment: ProcessInfo.processInfo.environment) }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the saved preferences.")
        @Option(help: "Output format: text or json.") var format: DataFormat = .text
        func run() throws {
            let prefs = try PrefsCommand.load()
            if format == .json { return print(JSONRenderer.encode(JSONOutput.Prefs(prefs, file: PrefsCommand.url))) }
            print("# \(PrefsCommand.url.path)")
            print(prefs.serialized(), terminator: "")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Save one preference: region EU, diet vegan,halal, avoid sulphites, strict_diet yes, child yes, online yes, update-server https://…, telemetry yes.")
        @Argument(help: "One of: region, diet, avoid, strict_diet, child, online, update-server, telemetry.") var key: String
        @Argument(help: "The value; lists are comma-separated; `none` or `auto` clears.") var value: String
        func run() throws {
            var prefs = try PrefsCommand.load()
            do { try prefs.set(key, value) } catch let e as PreferencesError { throw ValidationError(Failure.message(of: e)) }
            try prefs.save(to: PrefsCommand.url)
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

    static func load() throws -> PreferencesFile {
        try PreferencesFile.load(from: url)
    }
}
