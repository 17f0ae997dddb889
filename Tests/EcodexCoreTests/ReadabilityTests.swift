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

    /// The ASCII fast path answers as the Unicode path does, on every line the base pack shows and on edge cases.
    @Test func safetyWordsByteByByteMatchTheUnicodeWay() {
        var texts = ["safe", "SAFE", "unsafe", "Unsafe!", "safest", "safe6", "6safe", "un-safe", "unsafeunsafe", "safe's", "x safe",
                     "safeguard", "a  safe  b", "", " ", "sAfE.", "unsafely", "safe\nunsafe", "not-safe", "safe\u{0}"]
        for a in BasePackTests.pack.additives {
            texts.append(a.plainRisk.summary)
            texts += a.plainRisk.audience
            if let c = a.concern { texts.append(c) }
            for rule in a.regionRules.values { texts += [rule.statement, rule.conditions].compactMap { $0 } }
        }
        for text in texts {
            #expect(Readability.mentionsSafety(text) == Readability.mentionsSafetyByScalar(text), "\(text)")
        }
        #expect(texts.contains(where: Readability.mentionsSafety))
    }

    @Test func wordCountSkipsLoosePunctuation() {
        #expect(Readability.wordCount("Mono- and diglycerides – E471 .") == 4)
        #expect(Readability.isBlank(" \t "))
        #expect(!Readability.isBlank(" a "))
    }
}
