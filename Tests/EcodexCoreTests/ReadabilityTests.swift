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

    @Test func safetyWordsAreFoundAsWholeWordsOnly() {
        #expect(Readability.mentionsSafety("Some say it is SAFE."))
        #expect(Readability.mentionsSafety("Called unsafe by a blog"))
        #expect(!Readability.mentionsSafety("A food safety agency reviewed it."))
        #expect(!Readability.mentionsSafety("Unsafely worded"))
    }

    @Test func wordCountSkipsLoosePunctuation() {
        #expect(Readability.wordCount("Mono- and diglycerides – E471 .") == 4)
        #expect(Readability.isBlank(" \t "))
        #expect(!Readability.isBlank(" a "))
    }
}
