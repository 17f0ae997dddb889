import Testing
@testable import EcodexCore

@Suite struct ReadabilityTests {
    @Test(arguments: [("cat", 1), ("water", 2), ("colour", 2), ("made", 1), ("table", 2), ("additive", 3), ("additives", 3), ("carries", 2), ("E102", 1)])
    func syllables(_ word: String, _ n: Int) {
        #expect(Readability.syllableCount(word) == n)
    }

    @Test func plainLinesScoreLowAndJargonScoresHigh() {
        #expect(Readability.fleschKincaidGrade("A yellow dye made in a lab. EU labels must warn about it.") <= 6)
        #expect(Readability.fleschKincaidGrade("Hypersensitivity reactions necessitate comprehensive toxicological reevaluation.") > 12)
    }

    @Test func wordsIgnorePunctuation() {
        #expect(Readability.words("Mono- and diglycerides, E471.").count == 4)
    }
}
