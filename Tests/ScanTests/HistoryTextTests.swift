import Foundation
import Testing

/// `history` lists results aligned, in local time; `history show N` prints the result again in full.
@Suite struct HistoryTextTests {
    let scan = ScanBinary()

    @Test func showPrintsTheResultAgainInFull() throws {
        let first = try scan.run(["text", "Sugar, E102, citric acid"])
        #expect(first.status == 0, "\(first.stderr)")
        let shown = try scan.run(["history", "show", "1"])
        #expect(shown.status == 0, "\(shown.stderr)")
        // Every card line of the first run comes back (the disclaimer and versions too).
        let cards = first.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        for line in cards { #expect(shown.stdout.contains(line), "missing: \(line)\n\(shown.stdout)") }
    }

    @Test func listIsAlignedAndInLocalTime() throws {
        // Ten results: numbers #1 to #10 differ in width, so only padding keeps the columns.
        for _ in 0..<10 { #expect(try scan.run(["text", "E102", "--region", "EU"]).status == 0) }
        let utc = try scan.run(["history"], environment: ["TZ": "UTC"])
        let far = try scan.run(["history"], environment: ["TZ": "Pacific/Kiritimati"])
        let lines = utc.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 10, "\(utc.stdout)")
        #expect(utc.stdout.range(of: "T[0-9:]+Z", options: .regularExpression) == nil, "\(utc.stdout)")
        let columns = lines.compactMap { $0.range(of: "  EU  ")?.lowerBound.utf16Offset(in: $0) }
        #expect(columns.count == 10 && Set(columns).count == 1, "\(utc.stdout)")
        #expect(utc.stdout.contains(" UTC ") || utc.stdout.contains(" GMT "), "\(utc.stdout)")
        #expect(far.stdout != utc.stdout && far.stdout.contains("+14"), "\(far.stdout)")
    }
}
