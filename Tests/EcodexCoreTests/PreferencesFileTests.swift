import Foundation
import Testing
@testable import EcodexCore

@Suite struct PreferencesFileTests {
    @Test func roundTrips() throws {
        var p = PreferencesFile()
        try p.set("region", "us")
        try p.set("diet", "vegan, Halal")
        try p.set("avoid", "sulfites,aspartame")
        try p.set("child", "yes")
        let back = try PreferencesFile.parse(p.serialized())
        #expect(back == p)
        #expect(back.region == .us && back.diets == [.vegan, .halal] && back.sensitivities == [.sulphites, .pku] && back.childMode)
    }

    @Test func updateServerAndTelemetryAreOffUntilSet() throws {
        var p = PreferencesFile()
        #expect(p.updateServer == nil && !p.telemetry, "telemetry is opt-in")
        try p.set("update-server", "https://updates.example.org")
        try p.set("telemetry", "yes")
        let back = try PreferencesFile.parse(p.serialized())
        #expect(back.updateServer == "https://updates.example.org" && back.telemetry)
        #expect(throws: PreferencesError.self) { try p.set("update_server", "ftp://example.org") }
        try p.set("update_server", "none")
        #expect(p.updateServer == nil)
    }

    /// The update server obeys the one address rule every download keeps (`URLPolicy`):
    /// https anywhere, plain http only to this computer.
    @Test(arguments: [
        ("https://updates.example.org", true), ("http://127.0.0.1:8080", true), ("http://localhost/x", true),
        ("http://updates.example.org", false), ("http://192.168.1.5:8080", false), ("ftp://example.org", false),
        ("https://", false), ("updates.example.org", false),
    ])
    func updateServerKeepsTheHTTPSRule(_ address: String, _ allowed: Bool) {
        var p = PreferencesFile()
        if allowed {
            #expect(throws: Never.self) { try p.set("update_server", address) }
            #expect(p.updateServer == address)
        } else {
            #expect(throws: PreferencesError.self) { try p.set("update_server", address) }
            #expect(p.updateServer == nil)
        }
    }

    @Test func autoAndNoneClear() throws {
        var p = try PreferencesFile.parse("region = UK\ndiet = vegan\n")
        try p.set("region", "auto")
        try p.set("diet", "none")
        #expect(p.region == nil && p.diets.isEmpty)
    }

    @Test(arguments: ["region = Mars", "diet = paleo", "just words", "child = maybe"])
    func badLinesAreParseErrorsThatSayWhatToDo(_ text: String) {
        #expect(throws: PreferencesError.self) { try PreferencesFile.parse(text) }
    }

    /// A key this version does not know (a newer one may have written it) is skipped, not refused;
    /// reading leniently keeps every good line and names each bad one by file and line.
    @Test func unknownKeysAreSkippedAndBadLinesNamed() throws {
        #expect(try PreferencesFile.parse("colour = blue\nregion = UK\n").region == .uk)
        let reading = PreferencesFile.read("diet = vegan\nregion EU\ncolour = blue\n", path: "/p.conf")
        #expect(reading.file.diets == [.vegan])
        #expect(reading.problems.count == 2)
        #expect(reading.stop == .atLine(path: "/p.conf", line: 2, text: "region EU", .notKeyValue(line: 2)))
        #expect(reading.unknownKeys.count == 1 && reading.unknownKeys.first?.isUnknownKey == true)
    }

    @Test func commentsAndBlankLinesAreIgnored() throws {
        let p = try PreferencesFile.parse("# mine\n\nregion = AU  # home\n")
        #expect(p.region == .au)
    }

    @Test func configFolderFollowsXDG() {
        #expect(PreferencesFile.defaultURL(environment: ["XDG_CONFIG_HOME": "/x"]).path == "/x/ecodex/preferences.conf")
        #expect(PreferencesFile.defaultURL(environment: ["HOME": "/h"]).path == "/h/.config/ecodex/preferences.conf")
        #expect(PreferencesFile.defaultURL(environment: ["ECODEX_CONFIG": "/p.conf"]).path == "/p.conf")
    }
}
