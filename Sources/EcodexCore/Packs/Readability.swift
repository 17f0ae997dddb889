/// Reading-level measures for the lines shoppers read (plain-risk summaries).
public enum Readability {
    /// Words in `text`: runs of letters, digits, apostrophes and hyphens.
    public static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’" || $0 == "-") })
    }

    /// Flesch–Kincaid grade level: 0.39 × words/sentence + 11.8 × syllables/word − 15.59.
    /// A code such as "E102" counts as one short word, as a reader sees it.
    public static func fleschKincaidGrade(_ text: String) -> Double {
        let w = words(text)
        guard !w.isEmpty else { return 0 }
        let sentences = max(1, text.split(whereSeparator: { ".!?".contains($0) }).filter {
            !words(String($0)).isEmpty
        }.count)
        let syllables = w.reduce(0) { $0 + syllableCount($1) }
        return 0.39 * Double(w.count) / Double(sentences) + 11.8 * Double(syllables) / Double(w.count) - 15.59
    }

    /// English syllables by the usual vowel-group heuristic: count groups of
    /// vowels, drop a silent final "e", keep at least one.
    public static func syllableCount<S: StringProtocol>(_ word: S) -> Int {
        let w = word.lowercased().filter(\.isLetter)
        guard !w.isEmpty else { return 1 }
        let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y"]
        var count = 0
        var previousVowel = false
        for c in w {
            let v = vowels.contains(c)
            if v && !previousVowel { count += 1 }
            previousVowel = v
        }
        if w.hasSuffix("e") && !w.hasSuffix("le") && count > 1 { count -= 1 }
        return max(1, count)
    }
}
