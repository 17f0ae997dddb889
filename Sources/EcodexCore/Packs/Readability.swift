/// Reading-level and wording measures for the lines shoppers read
/// (plain-risk summaries, statements). They walk Unicode scalars, not
/// `Character`s: a full pack has thousands of lines and grapheme breaking
/// would dominate the time to verify it.
public enum Readability {
    /// Words in `text`: runs of letters, digits, apostrophes and hyphens.
    public static func words(_ text: String) -> [Substring] {
        text.unicodeScalars.split(whereSeparator: { !isWordScalar($0) }).map { Substring($0) }
    }

    /// Flesch–Kincaid grade level: 0.39 × words/sentence + 11.8 × syllables/word − 15.59.
    /// A code such as "E102" counts as one short word, as a reader sees it.
    /// Sentences end at `.`, `!` or `?`; one without words does not count.
    public static func fleschKincaidGrade(_ text: String) -> Double {
        var words = 0, syllables = 0, sentences = 0
        var sentenceHasWords = false
        var word: [UInt8] = []  // the current word's ASCII letters, lower-cased
        var inWord = false
        func endWord() {
            guard inWord else { return }
            words += 1
            syllables += syllableCount(asciiLetters: word)
            sentenceHasWords = true
            word.removeAll(keepingCapacity: true)
            inWord = false
        }
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                inWord = true
                if let letter = asciiLowercaseLetter(scalar) { word.append(letter) }
                continue
            }
            endWord()
            if scalar == "." || scalar == "!" || scalar == "?" {
                if sentenceHasWords { sentences += 1 }
                sentenceHasWords = false
            }
        }
        endWord()
        if sentenceHasWords { sentences += 1 }
        guard words > 0 else { return 0 }
        return 0.39 * Double(words) / Double(max(1, sentences)) + 11.8 * Double(syllables) / Double(words) - 15.59
    }

    /// English syllables by the usual heuristic: words of up to three letters
    /// have one; a silent final "e", "es" or "ed" after a consonant (not "l") is
    /// dropped, as is a leading "y"; then each run of one or two vowels counts once.
    public static func syllableCount<S: StringProtocol>(_ word: S) -> Int {
        syllableCount(asciiLetters: word.unicodeScalars.compactMap(asciiLowercaseLetter))
    }

    /// Words separated by white space that hold at least one letter or digit.
    public static func wordCount(_ text: String) -> Int {
        var count = 0
        var inToken = false, tokenCounted = false
        for scalar in text.unicodeScalars {
            if isWhitespace(scalar) {
                inToken = false
                continue
            }
            if !inToken { inToken = true; tokenCounted = false }
            if !tokenCounted, isLetterOrDigit(scalar) {
                count += 1
                tokenCounted = true
            }
        }
        return count
    }

    /// True when `text` uses "safe" or "unsafe" as a word (not "safety", which states a fact).
    public static func mentionsSafety(_ text: String) -> Bool {
        // ASCII text, nearly all of it, byte by byte: a word's first six letters
        // packed in an integer. Anything else goes the Unicode way below.
        let safe: UInt64 = 0x73_61_66_65, unsafe: UInt64 = 0x75_6E_73_61_66_65
        var packed: UInt64 = 0, length = 0, plain = true
        for byte in text.utf8 {
            guard byte < 0x80 else { return mentionsSafetyByScalar(text) }
            let lower = byte | 0x20
            if lower >= 0x61 && lower <= 0x7A {
                if length < 6 { packed = packed << 8 | UInt64(lower); length += 1 } else { plain = false }
            } else if length > 0 || !plain {
                if plain && (packed == safe || packed == unsafe) { return true }
                packed = 0; length = 0; plain = true
            }
        }
        return plain && (packed == safe || packed == unsafe)
    }

    /// `mentionsSafety` for any text (internal so tests can hold the ASCII path to it).
    static func mentionsSafetyByScalar(_ text: String) -> Bool {
        var word: [UInt8] = []
        var plain = true  // the current word is ASCII letters only, at most 6 of them
        func check() -> Bool {
            defer { word.removeAll(keepingCapacity: true); plain = true }
            return plain && (word == safe || word == unsafe)
        }
        for scalar in text.unicodeScalars {
            if isAlphabetic(scalar) {
                if let letter = asciiLowercaseLetter(scalar), word.count < 6 { word.append(letter) } else { plain = false }
            } else if !word.isEmpty || !plain {
                if check() { return true }
            }
        }
        return check()
    }

    /// True when `text` is empty or only white space.
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isWhitespace)
    }

    // MARK: - Scalars

    private static let safe = Array("safe".utf8)
    private static let unsafe = Array("unsafe".utf8)

    private static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        s == "'" || s == "’" || s == "-" || isLetterOrDigit(s)
    }

    // ASCII answers first: the Unicode property tables cost a lookup per scalar,
    // and nearly every scalar in a pack is ASCII.

    private static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII { return s.value == 0x20 || (s.value >= 0x09 && s.value <= 0x0D) }
        return s.properties.isWhitespace
    }

    private static func isAlphabetic(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value | 0x20
            return v >= 0x61 && v <= 0x7A
        }
        return s.properties.isAlphabetic
    }

    private static func isLetterOrDigit(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value | 0x20
            return (v >= 0x61 && v <= 0x7A) || (s.value >= 0x30 && s.value <= 0x39)
        }
        let p = s.properties
        if p.isAlphabetic || p.numericType != nil { return true }
        // Marks and joiners (a decomposed "é", a zero-width non-joiner) belong to the letter before them.
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    private static func asciiLowercaseLetter(_ s: Unicode.Scalar) -> UInt8? {
        guard s.isASCII else { return nil }
        let v = UInt8(s.value) | 0x20
        return v >= 0x61 && v <= 0x7A ? v : nil
    }

    private static func syllableCount(asciiLetters word: [UInt8]) -> Int {
        guard word.count > 3 else { return 1 }
        func isVowel(_ c: UInt8) -> Bool {
            c == 0x61 || c == 0x65 || c == 0x69 || c == 0x6F || c == 0x75 || c == 0x79  // a e i o u y
        }
        func consonantNotL(_ c: UInt8) -> Bool { !isVowel(c) && c != 0x6C }
        var end = word.count
        let e: UInt8 = 0x65, s: UInt8 = 0x73, d: UInt8 = 0x64
        if word[end - 2] == e, word[end - 1] == s || word[end - 1] == d, consonantNotL(word[end - 3]) {
            end -= 2
        } else if word[end - 1] == e, consonantNotL(word[end - 2]) {
            end -= 1
        }
        var start = 0
        if word[0] == 0x79 { start = 1 }  // a leading "y" is a consonant
        var count = 0, run = 0
        for c in word[start..<end] {
            if isVowel(c) {
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
