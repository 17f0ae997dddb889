import ArgumentParser
import EcodexCore
import EcodexStore
import Foundation

struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Find an additive by name, in any label language, even with a typo: scan lookup tartrazin."
    )

    @Argument(help: "A name such as tartrazine, Zitronensäure or \"FD&C Yellow No. 5\".")
    var name: String

    @Option(help: "How many matches to list.") var limit = 5
    @Option(help: "Output format: text or json.") var format: DataFormat = .text
    @Option(help: "Folder for the additive store.") var dataDir: String?

    func run() throws {
        do {
            let store = try Wiring.openStore(dataDir: dataDir)
            let matches = try store.search(name, limit: limit)
            guard let best = matches.first, let record = try store.additive(code: best.code) else {
                throw EcodexError.lookup("No additive is called \"\(name)\". Check the spelling, or look it up by its code (E...).")
            }
            switch format {
            case .json:
                print(JSONRenderer.encode(JSONOutput.Lookup(query: name, matches: matches, record: record)))
            case .text:
                print(RecordRenderer.text(record, matchedName: best.name, width: TerminalWidth.columns()))
                if matches.count > 1 {
                    print("\nOther matches: " + matches.dropFirst().map { "\($0.name) (\($0.code))" }.joined(separator: ", "))
                }
            }
        } catch {
            var out = Output(format: format == .json ? .json : .text)
            out.failure(error, input: name)
            throw ExitCode(out.exitCode)
        }
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List past results, or show one again without re-scanning: scan history show 3.",
        subcommands: [List.self, Show.self, Clear.self, Reset.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List recent results, newest first.")
        @Option(help: "How many to list.") var limit = 20
        @Option(help: "Output format: text or json.") var format: DataFormat = .text
        @Option(help: "Folder for the store and history.") var dataDir: String?
        func run() throws {
            let entries = try withStoreErrors { try UserStore(location: Wiring.location(dataDir)).history(limit: limit) }
            if format == .json { return print(JSONRenderer.encode(JSONOutput.History(entries: entries.map(JSONOutput.HistoryItem.init)))) }
            if entries.isEmpty { print("No scans yet."); return }
            print(HistoryText.list(entries))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one past result again.")
        @Argument(help: "The number from `scan history`.") var id: Int64
        @Option(help: "Output format: text or json.") var format: DataFormat = .text
        @Option(help: "Folder for the store and history.") var dataDir: String?
        func run() throws {
            guard let entry = try withStoreErrors({ try UserStore(location: Wiring.location(dataDir)).historyEntry(id: id) }) else {
                throw withClass(.lookup("There is no scan #\(id).", advice: .listHistory))
            }
            if format == .text {
                print(HistoryText.show(entry, renderer: TextRenderer()))
            } else {
                print(JSONOutput.historyEntry(entry))
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Delete all saved results (asks first on a terminal).")
        @Option(help: "Folder for the store and history.") var dataDir: String?
        @Flag(name: [.short, .long], help: "Delete without asking (needed when not on a terminal).") var yes = false
        func run() throws {
            guard try Confirmation.clearHistory(yes: yes) else { print("Nothing was deleted."); return }
            try withStoreErrors { try UserStore(location: Wiring.location(dataDir)).clearHistory() }
            print("History cleared.")
        }
    }
}

extension HistoryCommand {
    /// `scan history reset`: what a damaged history file's message tells the shopper to run.
    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Set the history file aside (kept as user.sqlite.damaged-TIME) and start a new one.")
        @Option(help: "Folder for the store and history.") var dataDir: String?
        func run() throws {
            if let kept = try withStoreErrors({ try UserStore.setAside(location: Wiring.location(dataDir)) }) {
                print("History set aside as \(kept.path); a new one starts with the next scan.")
            } else {
                print("There is no history file to reset.")
            }
        }
    }
}

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "The local additive store: status, check, rebuild.",
        subcommands: [Status.self, Check.self, Rebuild.self],
        defaultSubcommand: Status.self
    )

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Where the store is and which data and pack versions it holds.")
        @Option(help: "Folder for the store.") var dataDir: String?
        @Option(help: "Output format: text or json.") var format: DataFormat = .text
        func run() throws {
            let store = try withStoreErrors { try Wiring.openStore(dataDir: dataDir) }
            if format == .json {
                return print(JSONRenderer.encode(JSONOutput.StoreStatus(
                    store: store.location.additivesPath.path, history: store.location.userPath.path,
                    dataVersion: store.versions.dataVersion, packVersion: store.versions.packVersion, builtAt: store.builtAt,
                    additives: try store.allAdditives().count, verified: store.dataIsVerified)))
            }
            print("Store: \(store.location.additivesPath.path)")
            print("History: \(store.location.userPath.path)")
            print("Data version \(store.versions.dataVersion) · pack \(store.versions.packVersion) · built \(store.builtAt)")
            print("Additives: \(try store.allAdditives().count)")
            if !store.dataIsVerified { print("Verified: no, installed with keys not built into scan (see `scan pack status`)") }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: "Check the store file for damage.")
        @Option(help: "Folder for the store.") var dataDir: String?
        @OptionGroup var trust: TrustOptions
        func run() throws {
            let store = try withStoreErrors { try Wiring.openStore(dataDir: dataDir) }
            guard store.integrityCheck() else {
                throw withClass(.lookup("The additive list is damaged.", advice: .rebuildStore))
            }
            // Sound but installed with keys scan does not trust is not healthy: results rest on it.
            guard store.isAnswerable(to: try withPackErrors { try trust.load().keys }) else {
                throw withClass(.update("The additive data was installed with keys not built into scan.", advice: .rebuildStore))
            }
            print("The additive store is healthy.")
            if store.location.isReadOnly {
                print("Its folder \(store.location.directory.path) is read-only: updates and history cannot be saved there.")
            }
        }
    }

    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rebuild",
            abstract: "Rebuild the additive store from the pack shipped with Ecodex. History and preferences are kept.")
        @Option(help: "Folder for the store.") var dataDir: String?
        func run() throws {
            try withStoreErrors { try AdditiveStore.rebuild(location: Wiring.location(dataDir)) }
            let store = try withStoreErrors { try Wiring.openStore(dataDir: dataDir) }
            print("Rebuilt \(store.location.additivesPath.path): data \(store.versions.dataVersion), pack \(store.versions.packVersion).")
        }
    }
}

/// Runs `body`; a classified error is printed and becomes its class's exit code.
func withStoreErrors<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as any ClassifiedError { throw withClass(e) }
}

/// Prints `e` the one way (`Failure`) and returns its class's exit code.
func withClass(_ e: any ClassifiedError) -> ExitCode {
    ExitCode(Failure.exitCode(for: e))
}

/// `withClass` for a failure the command line words itself.
func withClass(_ e: EcodexError) -> ExitCode {
    ExitCode(Failure.exitCode(for: e))
}
