import Foundation
import Testing
import EcodexCore
@testable import EcodexStore

/// Regional facts read back from a store built from the bundled base pack: the rules
/// survive the SQLite build and lookups by a regional name find them.
/// (The pack itself is checked fact by fact in EcodexCoreTests/RegionFactTests.)
@Suite struct RegionRulesStoreTests {
    @Test func theBuiltStoreKeepsEachRegionsRules() throws {
        let scratch = try Fixtures.Scratch()
        let store = try AdditiveStore(location: scratch.location)
        func rule(_ code: String, _ region: Region) throws -> RegionRule? {
            try store.additive(code: try #require(ECode(code)))?.rule(for: region)
        }
        // EU: Reg. (EC) No 1333/2008 Annex V, the Southampton colours' statement.
        #expect(try rule("E110", .eu)?.statement?.contains("activity and attention in children") == true)
        // US: FDA order of 15 January 2025 revoking erythrosine in food, effective 15 January 2027.
        let erythrosine = try #require(try rule("E127", .us))
        #expect(erythrosine.inForce(on: CalendarDay("2026-11-27")!).approved == true)
        #expect(erythrosine.inForce(on: CalendarDay("2027-02-01")!).approved == false)
        // UK: retained Reg. (EC) No 1333/2008 still lists titanium dioxide.
        #expect(try rule("E171", .uk)?.approved == true)
        // CA: Health Canada's List of Permitted Colouring Agents includes amaranth.
        #expect(try rule("E123", .ca)?.approved == true)
        // AU/NZ: Standard 1.2.3 and Schedule 9, phenylalanine statement for aspartame.
        #expect(try rule("E951", .au)?.warningRequired == true)
        // IN: FSS (Labelling and Display) Regulations 2020, added synthetic colour declared.
        #expect(try rule("E110", .india)?.conditions?.contains("Contains permitted synthetic food colour(s)") == true)
        // CFIA food colours table: "allura red" is Canada's name for E129.
        let match = try #require(try store.lookup(name: "allura red").first)
        #expect(match.code.description == "E129")
        #expect(try store.additive(code: match.code)?.displayName(in: .ca) == "Allura Red")
        // INS 307b is mixed tocopherol concentrate (Australian labels: `antioxidant (307b)`),
        // not alpha-tocopherol, which is E307's name (data .22).
        #expect(try store.additive(code: try #require(ECode("E307b")))?.displayName(in: .au) == "Mixed tocopherol concentrate")
        #expect(try store.lookup(name: "alpha-tocopherol").first?.code.description == "E307")
    }
}
