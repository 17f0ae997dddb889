import Foundation
import Testing
@testable import scan

/// What a user meets before any scan: versions, and a mistyped command.
@Suite struct CommandLineTests {
    @Test func versionNamesTheProgramDataAndPack() throws {
        let scan = ScanBinary()
        let fresh = try scan.run(["--version"])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        let lines = fresh.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("scan ") == true)
        #expect(lines.count == 2 && lines[1].contains("data ") && lines[1].contains(" · pack ") && lines[1].hasSuffix("(bundled)"),
                "a data folder with no store yet names the bundled data: \(fresh.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scan.dataDir.appendingPathComponent("additives.sqlite").path),
                "asking for the version builds no store")
        _ = try scan.run(["code", "E330"])
        let json = try scan.run(["version", "--format", "json"])
        let object = json.jsonLines().first
        #expect(object?["version"] as? String == lines.first.map { String($0.dropFirst("scan ".count)) })
        #expect(object?["source"] as? String == "installed")
        #expect((object?["dataVersion"] as? String)?.isEmpty == false && (object?["packVersion"] as? String)?.isEmpty == false)
    }

    @Test(arguments: [("hsitory", "history"), ("tezt", "text"), ("HISTORY", "history"), ("lookpu", "lookup")])
    func aMistypedCommandIsAUsageErrorThatNamesTheCommand(_ typed: String, _ meant: String) throws {
        let run = try ScanBinary().run([typed])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("Did you mean `scan \(meant)`?"), "\(run.stderr)")
    }

    @Test func aMissingPhotoIsStillACaptureErrorAndAFileWinsOverACommandsName() throws {
        let scan = ScanBinary()
        #expect(try scan.run(["no-such-label.jpg"]).status == 10)
        #expect(try scan.run(["zzzzzz"]).status == 10, "a word near no command is taken as a photo")
        // A file that happens to be one slip from a command's name is a photo.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("tezt"))
        let p = Process()
        p.executableURL = ScanBinary.executable
        p.arguments = ["tezt"]
        p.currentDirectoryURL = dir
        p.environment = ProcessInfo.processInfo.environment.merging(["ECODEX_DATA_DIR": scan.dataDir.path]) { $1 }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 10, "the file is read as a photo (and is not one)")
    }

    @Test(arguments: [
        ("hsitory", "history"), ("histroy", "history"), ("barcod", "barcode"), ("updat", "update"),
        ("label", nil), ("photo.jpg", nil), ("dir/history", nil), ("-x", nil), ("ab", nil), ("history", nil),
    ] as [(String, String?)])
    func suggestionsTable(_ word: String, _ expected: String?) {
        #expect(CommandSuggestion.command(for: word, among: CommandSuggestion.topLevelCommands, fileExists: { _ in false }) == expected)
    }

    /// A blank photo is not a clean label: the headline says the list could not be read, and
    /// JSON says so in a field a script can test.
    @Test func aBlankPhotoIsUnreadableNotClean() throws {
        let scan = ScanBinary()
        let photo = scan.dataDir.appendingPathComponent("blank.png").path
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        convert.arguments = ["-size", "900x700", "xc:gray70", photo]
        try convert.run()
        convert.waitUntilExit()
        try #require(convert.terminationStatus == 0)
        let text = try scan.run([photo])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("\(photo): the ingredients could not be read\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("0 red") && !text.stdout.contains("no additives found"))
        let json = try scan.run([photo, "--format", "json"]).jsonLines().first
        #expect(json?["status"] as? String == "unreadable")
        let sample = try scan.run([ScanBinary.path("samples/candy-label.jpg"), "--format", "json"]).jsonLines().first
        #expect(sample?["status"] as? String == "read")
    }

    /// No text is no text, however it comes: an empty argument, blanks, or an empty standard input.
    @Test func emptyTextIsTheSameParseErrorFromAnArgumentOrStandardInput() throws {
        let scan = ScanBinary()
        let piped = try scan.run(["text", "-"], stdin: Data())
        #expect(piped.status == 12, "\(piped.stderr)")
        for typed in ["", "  \n "] {
            let run = try scan.run(["text", typed])
            #expect(run.status == 12, "\(run.stdout)")
            #expect(run.stdout.isEmpty && run.stderr.contains("No ingredient text was given"), "\(run.stderr)")
        }
    }

    /// A command that prints records or JSON Lines refuses HTML as a usage error instead of
    /// printing JSON in its place.
    @Test(arguments: [["lookup", "tartrazine"], ["history", "show", "1"], ["version"], ["batch", "--manifest", "none.txt"]])
    func aFormatACommandDoesNotOfferIsAUsageError(_ command: [String]) throws {
        let run = try ScanBinary().run(command + ["--format", "html"])
        #expect(run.status == 64, "\(command): \(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("{"), "no JSON instead of the page: \(run.stdout)")
    }
}
