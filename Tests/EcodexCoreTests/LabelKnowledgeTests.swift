import Testing
@testable import EcodexCore

/// Label languages and regions as pack data: the shipped data keeps the six regions as they
/// were, words are folded as the parser folds tokens, and a pack names only regions it defines.
@Suite struct LabelKnowledgeTests {
    @Test func theShippedRegionsAreTheSixWithTheirWords() {
        #expect(Region.allCases == [.eu, .us, .uk, .ca, .au, .india])
        #expect(Region(code: "gb") == .uk && Region(code: "NZ") == .au && Region(code: "usa") == .us)
        #expect(Region(code: "ZZ") == nil, "ZZ is a code no shipped region defines")
        #expect(Region(locale: "de_DE.UTF-8") == .eu && Region(locale: "en_NZ") == .au && Region(locale: "C") == nil)
        #expect(Region.ca.law == "Canadian law" && Region.eu.inSentence == "the EU" && Region.au.displayName == "Australia and New Zealand")
        #expect(Region(rawValue: "ZZ")?.law == "ZZ law", "an undefined region is still named")
    }

    @Test func wordsAreFoldedAsTheParserFoldsTokens() {
        #expect(LabelTables.key("ohne") == Token.hash("OHNE"))
        #expect(LabelTables.key("préférence") == Token.hash("PREFERENCE"))
        #expect(Negation.words.contains(Token.hash("SANS")) && NameIndex.stopWords.contains(Token.hash("DE")))
    }

    @Test func aPackNamesOnlyRegionsItDefines() {
        let zed = RegionDefinition(code: "ZZ", name: "Zedland", inSentence: "Zedland", law: "Zedland law")
        let record = TestRecords.record("E102", "Tartrazine", rules: ["ZZ": RegionRule(approved: false), "XY": RegionRule(approved: true)])
        let pack = Pack(version: "1.0.0", dataVersion: "1", regions: [Region(rawValue: "ZZ")!, .eu], additives: [record],
                        knowledge: LabelKnowledge(regions: [zed, zed]))
        let issues = PackSource.validate(pack).map(\.description)
        #expect(issues.contains { $0.contains("region_rules.XY") }, "\(issues)")
        #expect(!issues.contains { $0.contains("region_rules.ZZ") }, "\(issues)")
        #expect(issues.contains { $0.contains("EU is not a region the pack defines") }, "\(issues)")
        #expect(issues.contains { $0.contains("ZZ is defined twice") }, "\(issues)")
    }
}
