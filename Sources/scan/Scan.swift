import ArgumentParser
import EcodexCore
import EcodexStore
import Foundation

/// The `scan` command line: argument parsing and wiring only.
@main
struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find food additives on a label photo, typed text or code, and judge them by your region's rules.",
        discussion: """
            Works offline. Photos and text never leave this computer.
            Exit codes: 0 ok, 10 capture_error, 11 ocr_error, 12 parse_error, 13 lookup_error,
            14 network_error, 15 update_error, 64 usage error.
            """,
        subcommands: [
            ImageCommand.self, BurstCommand.self, TextCommand.self, CodeCommand.self, LookupCommand.self, BarcodeCommand.self,
            ProductsCommand.self, HistoryCommand.self, PrefsCommand.self, StoreCommand.self, PackCommand.self,
            UpdateCommand.self, TelemetryCommand.self, BenchCommand.self, AdviceCommand.self, BatchCommand.self,
            VersionCommand.self,
        ],
        defaultSubcommand: ImageCommand.self
    )

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first,
           let command = CommandSuggestion.command(for: first, among: CommandSuggestion.topLevelCommands,
                                                   fileExists: { FileManager.default.fileExists(atPath: $0) }) {
            FileHandle.standardError.write(Data("Error: No command or file named '\(first)'. Did you mean `scan \(command)`?\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        // The installed pack's regions and label languages, before an option names a region.
        AdditiveStore.useInstalledKnowledge(at: StoreLocation.resolve(override: dataDirArgument(arguments),
                                                                      environment: ProcessInfo.processInfo.environment))
        var parsed: ParsableCommand.Type?
        do {
            // `--version` alone is the `version` command, which also names the data in use.
            var command = try parseAsRoot(arguments == ["--version"] ? ["version"] : arguments)
            parsed = type(of: command)
            Telemetry.noticeOnFirstInteractiveRun()
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch let error as any ClassifiedError {
            Foundation.exit(Failure.exitCode(for: error))
        } catch where exitCode(for: error) == .failure {
            // Not ArgumentParser's own (a file write that failed, say): never a bare exit 1.
            Foundation.exit(Failure.exitCode(for: error))
        } catch let error as ValidationError where parsed != nil {
            // A value refused while running: the usage of the command that refused it, not the root's.
            let usage = usageString(for: parsed!)
            let path = usage.split(separator: " ").prefix { !$0.hasPrefix("<") && !$0.hasPrefix("[") }.joined(separator: " ")
            let text = "Error: \(message(for: error))\nUsage: \(usage)\n  See '\(path) --help' for more information.\n"
            FileHandle.standardError.write(Data(text.utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch {
            // Usage errors (64), help and version: ArgumentParser's own output and codes.
            exit(withError: error)
        }
    }

    /// The value of `--data-dir` among `arguments`, if any (`--data-dir DIR` or `--data-dir=DIR`).
    static func dataDirArgument(_ arguments: [String]) -> String? {
        for (i, a) in arguments.enumerated() {
            if a == "--data-dir", i + 1 < arguments.count { return arguments[i + 1] }
            if a.hasPrefix("--data-dir=") { return String(a.dropFirst("--data-dir=".count)) }
        }
        return nil
    }

    /// Every command and subcommand name, to tell them from inputs (`Failure.input`).
    static let commandWords: Set<String> = {
        var words: Set<String> = []
        var queue = configuration.subcommands
        while let next = queue.popLast() {
            if let name = next.configuration.commandName { words.insert(name) }
            queue += next.configuration.subcommands
        }
        return words
    }()
}
