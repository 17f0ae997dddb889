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

    /// English syllables by the usual heuristic: words of up to three letters
    /// have one; a silent final "e", "es" or "ed" after a consonant (not "l") is
    /// dropped, as is a leading "y"; then each run of one or two vowels counts once.
    public static func syllableCount<S: StringProtocol>(_ word: S) -> Int {
        var w = Array(word.lowercased().filter { $0.isASCII && $0.isLetter })
        guard w.count > 3 else { return 1 }
        let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y"]
        func consonantNotL(_ c: Character) -> Bool { !vowels.contains(c) && c != "l" }
        if w.count >= 3, ["es", "ed"].contains(String(w.suffix(2))), consonantNotL(w[w.count - 3]) {
            w.removeLast(2)
        } else if w.count >= 2, w.last == "e", consonantNotL(w[w.count - 2]) {
            w.removeLast()
        }
        if w.first == "y" { w.removeFirst() }
        var count = 0, run = 0
        for c in w {
            if vowels.contains(c) {
                run += 1
                if run == 1 || run == 3 { count += 1 }  // "eau": two groups of at most two
                if run == 3 { run = 1 }
            } else {
                run = 0
            }
        }
        return max(1, count)
    }
}
