import Foundation
import Testing

/// A bad line in the preferences file: scans name the file and the line; `prefs`, `prefs set`
/// and `prefs reset` still run so the shopper can repair it; an unknown key is only a warning.
@Suite struct PreferencesRepairTests {
    let scan = ScanBinary()
    var file: URL { scan.dataDir.appendingPathComponent("preferences.conf") }

    @Test func aBadLineNamesTheFileAndLineAndPrefsCommandsRepairIt() throws {
        try Data("diet = vegan\nregion EU\n".utf8).write(to: file)
        let failed = try scan.run(["code", "E120"])
        #expect(failed.status == 12)
        #expect(failed.stderr.contains("Line 2 of \(file.path)") && failed.stderr.contains("region EU"), "\(failed.stderr)")
        #expect(failed.stderr.contains("`scan prefs set KEY VALUE`"), "\(failed.stderr)")

        let shown = try scan.run(["prefs"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("diet = vegan"))
        #expect(shown.stderr.contains("warning: Line 2 of \(file.path)"), "\(shown.stderr)")

        let set = try scan.run(["prefs", "set", "region", "EU"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.contains("Removed from the file: region EU"), "\(set.stderr)")
        // The diet saved before survives the repair; the scan works again.
        let again = try scan.run(["code", "E120", "--format", "json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.jsonLines().first?["region"] as? String == "EU")
        #expect(again.jsonLines().first?.badge("E120") != "green")
    }

    @Test func resetRunsOnABadFile() throws {
        try Data("region EU\n".utf8).write(to: file)
        let reset = try scan.run(["prefs", "reset"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try scan.run(["code", "E330"]).status == 0)
    }

    @Test func anUnknownKeyIsReportedAndIgnored() throws {
        try Data("colour = blue\nregion = US\n".utf8).write(to: file)
        let run = try scan.run(["code", "E330", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.jsonLines().first?["region"] as? String == "US")
        let warnings = run.stderr.components(separatedBy: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(run.stderr)")
        #expect(warnings.first?.contains("Line 1 of \(file.path): unknown preference \"colour\", ignored.") == true, "\(run.stderr)")
    }
}
