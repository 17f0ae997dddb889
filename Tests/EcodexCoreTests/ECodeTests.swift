import Testing
@testable import EcodexCore

@Suite struct ECodeTests {
    @Test(arguments: [
        ("E102", "E102"), ("e 330", "E330"), ("E-330", "E330"), ("INS 211", "E211"), ("E150d", "E150d"),
        ("E 150 D", "E150d"), ("E160a(ii)", "E160a(ii)"), ("E160aii", "E160a(ii)"), ("e0330", "E330"),
        ("E1422", "E1422"), ("SIN450i", "E450(i)"), ("E450(iii)", "E450(iii)"), ("E161i", "E161i"), ("E161j", "E161j"),
    ])
    func normalises(_ input: String, _ expected: String) {
        #expect(ECode(input)?.description == expected)
    }

    @Test(arguments: ["", "E", "102x", "102z", "E 99999", "E0", "hello", "E160a(zz)", "E 2000"])
    func rejects(_ input: String) {
        #expect(ECode(input) == nil)
    }

    @Test func parentChain() {
        let c = ECode("E160a(ii)")!
        #expect(c.parent == ECode("E160a"))
        #expect(c.parent?.parent == ECode("E160"))
        #expect(c.base.parent == nil)
        #expect(c.withoutSubForm.description == "E160a")
        #expect(c.lineage.map(\.description) == ["E160a(ii)", "E160a", "E160"])
        #expect(ECode("E160")!.isAncestor(of: c))
        #expect(!c.isAncestor(of: c))
        #expect(!ECode("E161")!.isAncestor(of: c))
    }

    @Test func ordersNumerically() {
        let codes = ["E1422", "E330", "E102", "E150d", "E150a"].compactMap(ECode.init)
        #expect(codes.sorted().map(\.description) == ["E102", "E150a", "E150d", "E330", "E1422"])
    }
}

@Suite struct RegionTests {
    @Test(arguments: [("de_DE.UTF-8", Region.eu), ("en_US.UTF-8", .us), ("en_GB", .uk), ("fr_CA.UTF-8", .ca),
                      ("en_NZ.UTF-8", .au), ("hi_IN", .india), ("nl_BE.UTF-8", .eu)])
    func fromLocale(_ locale: String, _ region: Region) {
        #expect(Region(locale: locale) == region)
    }

    @Test(arguments: ["C", "POSIX", "C.UTF-8", "ja_JP.UTF-8", ""])
    func noRegionFromNeutralLocales(_ locale: String) {
        #expect(Region(locale: locale) == nil)
    }

    @Test func badgesOrderBySeverity() {
        #expect(Badge.green < Badge.yellow && Badge.yellow < Badge.red)
        #expect(Set(Badge.allCases.map(\.label)).count == 3)
    }
}
