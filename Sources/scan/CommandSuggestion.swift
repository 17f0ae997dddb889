import EcodexCore

/// A first argument that names neither a file nor a command but is a slip of a command's name
/// (`scan hsitory`): a usage error that names the command, not a missing photo.
enum CommandSuggestion {
    /// The command `word` is most likely a slip of, or nil when it could be meant as a photo.
    /// A word with a path separator or a file extension is always taken as a photo.
    static func command(for word: String, among commands: [String], fileExists: (String) -> Bool) -> String? {
        guard word.count >= 3, !word.hasPrefix("-"), !word.contains("/"), !word.contains("."),
              !commands.contains(word), !fileExists(word) else { return nil }
        let typed = word.lowercased()
        if commands.contains(typed) { return typed }
        let limit = typed.count >= 5 ? 2 : 1
        let ranked = commands
            .map { (name: $0, edits: EditDistance.bounded(typed, $0, limit: limit)) }
            .filter { $0.edits <= limit }
            .sorted { ($0.edits, $0.name) < ($1.edits, $1.name) }
        return ranked.first?.name
    }

    /// The names `scan`'s first argument may take.
    static var topLevelCommands: [String] {
        Scan.configuration.subcommands.compactMap { $0.configuration.commandName }
    }
}
