import Foundation
import Testing

/// Terminal text is wrapped to the terminal's width; piped output keeps its fixed 80 columns.
@Suite struct TerminalWidthTests {
    let scan = ScanBinary()
    static let label = ["text", "Sugar, colours: E102, E129, acid: E330", "--region", "EU"]

    /// Runs `scan` with standard output on a pseudo-terminal `columns` wide, `COLUMNS` set to
    /// `variable` (or unset), and returns what it printed.
    func onTerminal(_ arguments: [String], columns: Int, variable: String?) throws -> ScanBinary.Run {
        try scan.onTerminal(arguments, streams: [.output], columns: columns, unset: variable == nil ? ["COLUMNS"] : [],
                            environment: variable.map { ["COLUMNS": $0] } ?? [:], plainLines: true)
    }

    /// The longest line that could have been wrapped (a lone word longer than the width cannot).
    func widest(_ text: String) -> Int {
        text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).contains(" ") }.map(\.count).max() ?? 0
    }

    @Test func aTerminalGetsItsOwnWidth() throws {
        let narrow = try onTerminal(Self.label, columns: 50, variable: nil)
        #expect(narrow.status == 0, "\(narrow.stderr)")
        #expect((45...50).contains(widest(narrow.stdout)), "\(narrow.stdout)")
        #expect(narrow.stdout.contains("[✖ RED] Tartrazine (E102)"))
        let wide = try onTerminal(Self.label, columns: 110, variable: nil)
        #expect((95...110).contains(widest(wide.stdout)), "\(wide.stdout)")
    }

    @Test func columnsOverridesTheTerminalAndIsKeptReadable() throws {
        #expect((85...100).contains(widest(try onTerminal(Self.label, columns: 50, variable: "100").stdout)))
        #expect(widest(try onTerminal(Self.label, columns: 300, variable: nil).stdout) <= 120)
        let record = try onTerminal(["code", "E102"], columns: 60, variable: nil)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(widest(record.stdout.components(separatedBy: "Region  Allowed")[1].components(separatedBy: "\n\n")[0]) <= 60,
                "\(record.stdout)")
    }

    @Test func pipedOutputKeepsEightyColumns() throws {
        let piped = try scan.run(Self.label, environment: ["COLUMNS": "50"])
        #expect(piped.status == 0)
        #expect((70...80).contains(widest(piped.stdout)), "\(piped.stdout)")
    }
}
