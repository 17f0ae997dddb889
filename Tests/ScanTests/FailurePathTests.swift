import Foundation
import Testing

/// Issue 16, items 16 and 17: every subcommand's failure paths end with their documented
/// class and exit code (README "Exit codes"), in JSON mode too; and every command a message
/// tells the shopper to run is run here and works.
@Suite struct FailurePathTests {
    static let codes = ["capture_error": 10, "ocr_error": 11, "parse_error": 12, "lookup_error": 13, "network_error": 14,
                        "update_error": 15] as [String: Int32]

    /// One failure: the arguments, the class it must end with, and how to set the data folder up first.
    struct Case: CustomStringConvertible, Sendable {
        var arguments: [String]
        var errorClass: String
        var stdin: Data? = nil
        var setup: @Sendable (ScanBinary) throws -> Void = { _ in }
        /// The command prints JSON (`--format json`) and is checked that way too.
        var json = false
        /// The preferences file, relative to the data folder, when not the usual one.
        var config: String? = nil
        var description: String { "scan " + arguments.joined(separator: " ") }
    }

    static func damage(_ file: String) -> @Sendable (ScanBinary) throws -> Void {
        { scan in
            _ = try scan.run(["code", "E330"])
            let url = scan.dataDir.appendingPathComponent(file)
            try Data(repeating: 0x41, count: 8192).write(to: url)
        }
    }

    static func badPreferences(_ scan: ScanBinary) throws {
        try Data("region EU\n".utf8).write(to: scan.dataDir.appendingPathComponent("preferences.conf"))
    }

    static func preferencesPipe(_ scan: ScanBinary) throws {
        #expect(mkfifo(scan.dataDir.appendingPathComponent("preferences.conf").path, 0o600) == 0)
    }

    /// A file where the preferences file's folder should be: saving cannot work.
    static func preferencesInAFile(_ scan: ScanBinary) throws {
        try Data("x".utf8).write(to: scan.dataDir.appendingPathComponent("blocker"))
    }

    static let closedPort = "http://127.0.0.1:9/x"

    static var cases: [Case] {
        let missing = "/nonexistent/label.jpg"
        return [
            Case(arguments: [missing], errorClass: "capture_error", json: true),
            Case(arguments: ["image", ScanBinary.path("README.md")], errorClass: "capture_error", json: true),
            Case(arguments: ["burst", missing, missing], errorClass: "capture_error", json: true),
            Case(arguments: [ScanBinary.path("samples/candy-label.jpg"), "--lang", "xyz"], errorClass: "ocr_error", json: true),
            Case(arguments: ["text", "-"], errorClass: "parse_error", stdin: Data(), json: true),
            Case(arguments: ["text", "--jsonl", "/nonexistent/texts.jsonl"], errorClass: "parse_error", json: true),
            Case(arguments: ["text", "--jsonl", "-"], errorClass: "parse_error", stdin: Data("not json\n".utf8), json: true),
            Case(arguments: ["barcode", missing], errorClass: "capture_error", json: true),
            Case(arguments: ["barcode", ScanBinary.path("samples/candy-label.jpg")], errorClass: "capture_error", json: true),
            Case(arguments: ["text", "E102"], errorClass: "parse_error", setup: badPreferences, json: true),
            Case(arguments: ["code", "E102"], errorClass: "parse_error", setup: badPreferences, json: true),
            Case(arguments: ["barcode", "4006381333931"], errorClass: "parse_error", setup: badPreferences, json: true),
            Case(arguments: ["prefs", "set", "region", "EU"], errorClass: "lookup_error", setup: preferencesInAFile,
                 config: "blocker/preferences.conf"),
            Case(arguments: ["text", "E102"], errorClass: "parse_error", setup: preferencesPipe, json: true),
            Case(arguments: ["code", "hello"], errorClass: "parse_error", json: true),
            Case(arguments: ["code", "E199"], errorClass: "lookup_error", json: true),
            Case(arguments: ["code", "E330"], errorClass: "lookup_error", setup: damage("additives.sqlite"), json: true),
            Case(arguments: ["lookup", "zzzzqqqq"], errorClass: "lookup_error", json: true),
            Case(arguments: ["barcode", "123"], errorClass: "parse_error", json: true),
            Case(arguments: ["barcode", "4006381333931"], errorClass: "lookup_error", json: true),
            Case(arguments: ["barcode", "4006381333931", "--online"], errorClass: "network_error", json: true),
            Case(arguments: ["history"], errorClass: "lookup_error", setup: damage("user.sqlite")),
            Case(arguments: ["history", "show", "999"], errorClass: "lookup_error"),
            Case(arguments: ["store", "status"], errorClass: "lookup_error", setup: damage("additives.sqlite")),
            Case(arguments: ["products", "import", "/nonexistent.jsonl"], errorClass: "update_error", json: true),
            Case(arguments: ["products", "import", ScanBinary.path("samples/candy-label.jpg")], errorClass: "parse_error", json: true),
            Case(arguments: ["pack", "apply", "/nonexistent.pack"], errorClass: "update_error"),
            Case(arguments: ["pack", "verify", ScanBinary.path("README.md")], errorClass: "update_error"),
            Case(arguments: ["pack", "rollback"], errorClass: "update_error"),
            Case(arguments: ["pack", "apply", "http://example.org/x.pack"], errorClass: "update_error"),
            Case(arguments: ["pack", "apply", closedPort + ".pack"], errorClass: "network_error"),
            Case(arguments: ["update", "/nonexistent.pack"], errorClass: "update_error"),
            Case(arguments: ["update", "http://example.org/x.pack"], errorClass: "update_error"),
            Case(arguments: ["update", closedPort + ".pack"], errorClass: "network_error"),
        ]
    }

    @Test(arguments: cases)
    func everyFailureHasItsClassAndCode(_ c: Case) throws {
        let expected = try #require(Self.codes[c.errorClass])
        let scan = ScanBinary()
        var env = ["ECODEX_OFF_URL": Self.closedPort]
        if let config = c.config { env["ECODEX_CONFIG"] = scan.dataDir.appendingPathComponent(config).path }
        try c.setup(scan)
        let text = try scan.run(c.arguments, stdin: c.stdin, environment: env, timeout: 60)
        #expect(text.status == expected, "\(c): exit \(text.status), \(text.stderr)")
        #expect(text.stderr.contains(c.errorClass), "\(c): \(text.stderr)")
        #expect(!text.stderr.contains("Error: ") && !text.stderr.contains("Usage:"), "\(c) is not a usage error: \(text.stderr)")
        guard c.json else { return }
        let json = try scan.run(c.arguments + ["--format", "json"], stdin: c.stdin, environment: env, timeout: 60)
        #expect(json.status == expected, "\(c) --format json: exit \(json.status)")
        let lines = json.jsonLines()
        #expect(lines.count == 1 && lines.first?.errorClass == c.errorClass, "\(c) --format json: \(json.stdout)")
        let message = (lines.first?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(!message.isEmpty)
    }

    /// Every `scan …` a failure message names, run with placeholders filled in: it must be a
    /// command that exists and works on the folder the message was about.
    @Test func everyCommandAMessageNamesRunsAndWorks() throws {
        var named: Set<String> = []
        let env = ["ECODEX_OFF_URL": Self.closedPort]
        for c in Self.cases {
            let scan = ScanBinary()
            var env = env
            if let config = c.config { env["ECODEX_CONFIG"] = scan.dataDir.appendingPathComponent(config).path }
            try c.setup(scan)
            let run = try scan.run(c.arguments, stdin: c.stdin, environment: env, timeout: 60)
            for command in Self.commandsNamed(in: run.stderr + run.stdout) where named.insert(command).inserted {
                // Run it where the message appeared: the advice must fix what it is about.
                let words = command.split(separator: " ").map(String.init)
                let advised = try scan.run(try fill(words, scan), stdin: Data("E102".utf8), environment: env, timeout: 60)
                #expect(advised.status != 64 && advised.status != 1, "`\(command)` (advised by \(c)): \(advised.stderr)")
                // A repair command leaves the command that failed working again.
                if ["scan store rebuild", "scan history reset", "scan prefs reset"].contains(command) {
                    #expect(advised.status == 0, "`\(command)`: \(advised.stderr)")
                    let again = try scan.run(c.arguments, stdin: c.stdin, environment: env, timeout: 60)
                    #expect(again.status == 0, "\(c) after `\(command)`: \(again.stderr)")
                }
            }
        }
        for required in ["scan store rebuild", "scan history reset", "scan prefs reset"] {
            #expect(named.contains(required), "no failure above advised `\(required)`: \(named.sorted())")
        }
    }

    /// Every advice the command line can give, from `scan advice`: each command it names runs.
    @Test func everyAdviceNamesACommandThatExists() throws {
        let scan = ScanBinary()
        let list = try scan.run(["advice"])
        #expect(list.status == 0, "\(list.stderr)")
        let entries = list.jsonLines()
        #expect(entries.count >= 10)
        for entry in entries {
            let sentence = entry["sentence"] as? String ?? ""
            let commands = entry["commands"] as? [[String]] ?? []
            #expect(!commands.isEmpty, "\(entry)")
            // What the sentence names is what is run.
            for named in Self.commandsNamed(in: sentence) {
                #expect(commands.contains { named == "scan " + $0.prefix(named.split(separator: " ").count - 1).joined(separator: " ") },
                        "`\(named)` in \"\(sentence)\" is not among \(commands)")
            }
            for command in commands {
                if let script = command.first, script.hasPrefix("!") {
                    #expect(FileManager.default.isExecutableFile(atPath: ScanBinary.path(String(script.dropFirst()))), "\(script)")
                    continue
                }
                let run = try scan.run(try fill(command, scan), stdin: Data("E102".utf8),
                                       environment: ["ECODEX_OFF_URL": Self.closedPort], timeout: 60)
                #expect(run.status != 64 && run.status != 1, "scan \(command.joined(separator: " ")): \(run.stderr)")
            }
        }
    }

    /// The `scan …` commands in backticks in `text` (`scan store rebuild`, `scan text`).
    static func commandsNamed(in text: String) -> [String] {
        text.components(separatedBy: "`").enumerated().compactMap { i, part in
            i % 2 == 1 && part.hasPrefix("scan") ? part : nil
        }
    }

    /// Placeholders in an advised command made real: a small product file, a folder, text.
    func fill(_ words: [String], _ scan: ScanBinary) throws -> [String] {
        let file = scan.dataDir.appendingPathComponent("advised-products.jsonl")
        try Data(#"{"code":"4006381333931","ingredients_text":"Sugar, E102"}"#.utf8).write(to: file)
        // `scan text` takes the text; the advice test feeds it on standard input.
        if words == ["scan", "text"] { return ["text", "-"] }
        return words.drop { $0 == "scan" }.map { word in
            switch word {
            case "FILE": file.path
            case "DIR": scan.dataDir.appendingPathComponent("other").path
            case "TEXT": "Sugar, E102"
            case "URL": "/nonexistent.pack"
            case "KEY": "region"
            case "VALUE": "EU"
            default: word
            }
        }
    }
}
