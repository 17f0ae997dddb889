/// A token trie over every lexicon name and class word, with a deletion index for fuzzy words.
///
/// Names are folded like label text and split into words; punctuation inside a
/// name is dropped so `FD&C Yellow No. 5`, `FD&C Yellow #5` and `FD and C`-free
/// spellings meet on the same key. Matching walks the trie word by word from a
/// start position, so the cost per start is bounded by the longest name, not by
/// the number of names. Words the index does not know can stand in for a known
/// word within one edit (found through a sorted table of one-deletion hashes),
/// as long as the whole name stays within a budget scaled to its length.
struct NameIndex: Sendable {
    /// What a complete key means: an additive name, a class word, or both.
    struct Target: Sendable {
        var code: ECode?
        var contextOnly = false
        /// Function id when the key is a class word.
        var function: String?
        /// The key announces nutrients (`vitamins`): numbers and letters after it are not codes.
        var nutrient = false
        /// Folded letters and digits in the key, for the fuzzy budget.
        var chars = 0
        /// Words in the key: a one-word name has no other words to vouch for a fuzzy one.
        var words = 1
    }

    /// One word of label text as the index sees it.
    struct StreamWord {
        var token: Int32
        /// One past the word's last token (`token + 3` for a hyphen-joined `di-gliceridi`).
        var tokenEnd: Int32
        /// Vocabulary id, or -1 when the word is not in any name.
        var id: Int32
        /// Ids of the word's other number (`formIDs`), or -1: followed like the word itself.
        var forms: (Int32, Int32) = (-1, -1)
        /// A comma, bracket or code lies between this word and the previous one.
        var barrierBefore: Bool
        var length: Int32
        /// Word confidence is low (OCR): fuzzy matching may reach shorter words.
        var lowConfidence: Bool
        /// The word may stand in for a known word within one edit (unknown, letters only, long enough).
        var fuzzyEligible: Bool
        /// Range of the word in the normalised scalars.
        var scalarStart: Int32
        var scalarEnd: Int32
        /// The word is a compound read by its last part (`Sonnenblumenlecithine` as `lecithine`).
        var compound = false
        /// The word begins a line of the text.
        var lineStart = false
        /// The one known word this unknown word spells with a letter lost or doubled at its edge
        /// (`edgeLossWord`), or -1: read as that word's one-word name when nothing else matches.
        var edgeLoss: Int32 = -1
    }

    /// The longest key found at a start position.
    struct Match {
        var startWord: Int
        /// One past the last stream word.
        var endWord: Int
        var target: Target
        var edits: Int
        /// Read through `StreamWord.edgeLoss`: counts only under a class word of its own function
        /// or beside a code, as a compound's last part does.
        var edgeLoss = false

        /// Whether this match is preferred to `other`: it reaches further, or as far with fewer edits.
        func beats(_ other: Match?) -> Bool {
            guard let other else { return true }
            return endWord > other.endWord || (endWord == other.endWord && edits < other.edits)
        }
    }

    /// The tables, built by `Builder` or mapped from a saved image (`ParserImage`).
    let tables: NameTables

    /// Shortest unknown word that may carry two shape slips.
    static let twoSlipMinLength = 10

    /// Letters the rest of a name must hold, read without a slip, for its first word to carry an
    /// edge slip (`walk`): as many as a long word whose slip counts alone.
    static let firstWordSlipRestLetters = 8

    /// Shortest word, as read, that may have lost its first letter inside a line (`walk`). Shorter
    /// ones are too often another word with its letter lost: `ácido ólico` is folic acid
    /// (`fólico`, no additive) as much as cholic acid (`cólico`, E1000).
    static let lostFirstLetterInLineMinLength = 6

    /// Shortest first word, as read, whose lost last letter any rest of its name vouches for
    /// (`walk`): `xantha gum`, `potassiu sorbate`.
    static let lastLetterLostFirstWordMinLength = 6

    /// Words that mark a number (`No. 5`, `N° 5`, `Nr 5`): dropped before a number on both sides.
    /// Small enough that a linear scan beats hashing the hash again.
    static var numberMarks: [UInt64] { LabelTables.current.numberMarks }

    /// Articles and prepositions that labels drop or add inside names (`dioxyde de titane`,
    /// `dioxyde titane`): skipped in names and in text alike. `DL` is Italian `di` as OCR reads
    /// small print (`bicarbonato dl sodio`), and `CLE`, `CLI`, `CLU`, `CLES` are `de`, `di`, `du`,
    /// `des` with `d` read as `cl`, `DC` is `de` with `e` read as `c` (`sorbato cle potasio`,
    /// `benzoate dc sodium`); no label language has them as words of a name.
    static var stopWords: [UInt64] { LabelTables.current.stopWords }

    /// Link words (`stopWords`) that OCR glues to the next word of a name (`walk`), folded.
    static let gluedLinkWords: [[UInt32]] = ["DE", "DI", "DU", "DEL"].map { Array($0.unicodeScalars.map(\.value)) }

    /// Punctuation that may sit inside a name without ending it.
    @inline(__always)
    static func isSoftPunct(_ v: UInt64) -> Bool {
        v == 0x2D || v == 0x26 || v == 0x2E || v == 0x27 || v == 0x23 || v == 0xB0 || v == 0x2B || v == 0x22
    }

    /// Shortest word that fuzzy matching considers.
    static let fuzzyMinLength = 5

    /// Indexes every name and class word of `lexicon` (see `Builder`).
    init(lexicon: Lexicon) {
        var builder = Builder(lexicon: lexicon)
        tables = builder.tables()
    }

    init(tables: NameTables) {
        self.tables = tables
    }

    /// Folded words of a name; a hyphenated name also gives its joined spelling.
    static func keys(for name: String, plurals: Bool) -> [[[UInt32]]] {
        let text = NormalizedText(name)
        let tokens = Token.tokenize(text)
        var key: [[UInt32]] = []
        var joined: [[UInt32]] = []
        var hyphenJoin = false
        for (i, t) in tokens.enumerated() {
            if t.kind == .punct {
                if t.key == 0x2D, i > 0, tokens[i - 1].kind == .word, !t.spaceBefore,
                   i + 1 < tokens.count, tokens[i + 1].kind == .word, !tokens[i + 1].spaceBefore {
                    hyphenJoin = true
                }
                continue
            }
            if numberMarks.contains(t.key), i + 1 < tokens.count {
                var j = i + 1
                while j < tokens.count, tokens[j].kind == .punct, isSoftPunct(tokens[j].key) { j += 1 }
                if j < tokens.count, tokens[j].isDigits { continue }
            }
            if stopWords.contains(t.key) && tokens.count > 1 { continue }
            let w = Array(text.scalars[Int(t.start)..<Int(t.end)])
            key.append(w)
            if hyphenJoin, !joined.isEmpty {
                joined[joined.count - 1] += w
            } else {
                joined.append(w)
            }
            hyphenJoin = false
        }
        // A name needs a letter: `2` split off `2,6-di-tert-butyl` is not a name.
        guard key.contains(where: { $0.contains(where: { !($0 >= 0x30 && $0 <= 0x39) }) }) else { return [] }
        var result = [key]
        if joined != key { result.append(joined) }
        if let adjective = saltAdjectiveForm(of: key) { result.append(adjective) }
        if plurals {
            for k in result {
                for variant in pluralForms(of: k.last!) {
                    var p = k
                    p[p.count - 1] = variant
                    result.append(p)
                }
            }
        }
        return result
    }

    /// Spanish and Italian name a salt's metal by an adjective as often as by `de`/`di`:
    /// `citrato sódico` is `citrato de sodio`, `carbonato cálcico` `carbonato de calcio`,
    /// `citrato potassico` `citrato di potassio` (the data has mostly the `de` form; `de` and
    /// `di` are already dropped from the key). Masculine salt nouns only (`-ato`, `-ito`, `-uro`).
    static let saltAdjectives: [(metal: [UInt32], adjective: [UInt32])] = [
        ("SODIO", "SODICO"), ("POTASIO", "POTASICO"), ("POTASSIO", "POTASSICO"), ("CALCIO", "CALCICO"),
        ("MAGNESIO", "MAGNESICO"), ("AMONIO", "AMONICO"), ("AMMONIO", "AMMONICO"),
    ].map { (Array($0.0.unicodeScalars.map(\.value)), Array($0.1.unicodeScalars.map(\.value))) }

    static func saltAdjectiveForm(of key: [[UInt32]]) -> [[UInt32]]? {
        guard key.count >= 2, let salt = key[key.count - 2].last, salt == 0x4F,  // …O
              let form = saltAdjectives.first(where: { $0.metal == key[key.count - 1] }) else { return nil }
        var out = key
        out[out.count - 1] = form.adjective
        return out
    }

    /// Plural endings of the languages in the class table (`-s`, `-es`, `-e`, `-en`, `-n`, Italian `-e`→`-i`).
    static func pluralForms(of word: [UInt32]) -> [[UInt32]] {
        let s: UInt32 = 0x53, e: UInt32 = 0x45, n: UInt32 = 0x4E, i: UInt32 = 0x49
        var out = [word + [s], word + [e, s], word + [e], word + [e, n], word + [n]]
        if word.last == e || word.last == 0x4F { out.append(word.dropLast() + [i]) }
        return out
    }

    static let prime: UInt64 = 0x100_0000_01B3
    /// P^k for every word length the deletion index handles.
    static let powers: [UInt64] = {
        var p: [UInt64] = [1]
        for _ in 0..<48 { p.append(p[p.count - 1] &* prime) }
        return p
    }()

    /// Polynomial hashes of `w` and of `w` with each one letter removed, in O(length).
    ///
    /// With h(s) = Σ s[i]·P^(n-1-i), removing position k gives
    /// h(s[..<k])·P^(n-1-k) + h(s[(k+1)...]), so every deletion costs a multiply and an add.
    /// `suffix` is scratch space, reused to keep the per-word path free of allocations.
    static func deletionHashes(_ w: ArraySlice<UInt32>, into out: inout [UInt64], suffix: inout [UInt64]) {
        let n = w.count
        guard n < powers.count else { return }
        let base = w.startIndex
        if suffix.count < n + 1 { suffix = [UInt64](repeating: 0, count: n + 1) }
        suffix[n] = 0
        var k = n - 1
        while k >= 0 {
            suffix[k] = UInt64(w[base + k]) &* powers[n - 1 - k] &+ suffix[k + 1]
            k -= 1
        }
        out.append(suffix[0])
        var prefix: UInt64 = 0
        for k in 0..<n {
            out.append(prefix &* powers[n - 1 - k] &+ suffix[k + 1])
            prefix = prefix &* prime &+ UInt64(w[base + k])
        }
    }

    @inline(__always)
    static func edgeKey(_ node: Int32, _ word: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: node)) << 32 | UInt64(UInt32(bitPattern: word))
    }

    // MARK: Lookup

    /// The vocabulary id of a word token, or -1.
    @inline(__always)
    func id(ofWordHash h: UInt64) -> Int32 { tables.vocab.get(h) }

    /// Shortest word form (the shorter of singular and plural) that `formIDs` relates.
    static let wordFormMinLength = 6
    /// The same, for a word after the first of a name: the first word already anchors the
    /// match, so `carbonates acides d'ammonium` may find `carbonate acide d'ammonium`.
    static let innerWordFormMinLength = 5

    /// Vocabulary ids of the word's other number: the label's singular where a name has the
    /// plural, and the plural where it has the singular (`sodium citrate` / `sodium citrates`,
    /// `Sojalecithine` / `Sojalecithin`, `citrato` / `citrati`, `citrato` / `citratos`).
    ///
    /// Endings, in the label languages: add `-s` or `-es` (`-n` after `-e`: `Säure`/`Säuren`); drop
    /// `-s`, `-es`, `-e`, `-en`, `-n`; swap the Italian vowels `-o`/`-i`, `-a`/`-e`, `-e`/`-i`. The shorter form keeps at least
    /// `minLength` letters (`wordFormMinLength` for a name's first word), and a form that drops an ending must not end in `-s` itself
    /// (`pectinase` is not `pectinas` + `e`). Returns up to two ids other than the word's own.
    func formIDs<W: RandomAccessCollection<UInt32>>(_ w: W, own: Int32, minLength: Int = NameIndex.wordFormMinLength)
        -> (Int32, Int32) where W.Index == Int {
        let s: UInt32 = 0x53, e: UInt32 = 0x45, n: UInt32 = 0x4E, i: UInt32 = 0x49, o: UInt32 = 0x4F, a: UInt32 = 0x41
        var found: (Int32, Int32) = (-1, -1)
        func consider(_ h: UInt64) -> Bool {
            let id = tables.vocab.get(h)
            guard id >= 0, id != own, id != found.0 else { return false }
            if found.0 < 0 { found.0 = id; return false }
            found.1 = id
            return true
        }
        guard w.count >= minLength, let last = w.last else { return found }
        // Hashes of the word and of its prefixes one and two letters shorter.
        var whole = Token.fnvOffset
        var cut1 = Token.fnvOffset, cut2 = Token.fnvOffset
        for (k, v) in w.enumerated() {
            if k == w.count - 2 { cut2 = whole }
            if k == w.count - 1 { cut1 = whole }
            whole = Token.fnvStep(whole, v)
        }
        // Longer forms: the name has the plural (`-s`, `-es`; `-e` → `-en`). No arrays: this runs per word.
        if last == e {
            if consider(Token.fnvStep(whole, s)) || consider(Token.fnvStep(whole, n)) { return found }
        } else if last != s {
            if consider(Token.fnvStep(whole, s)) || consider(Token.fnvStep(Token.fnvStep(whole, e), s)) { return found }
        }
        // Shorter forms: the name has the singular.
        let beforeLast = w[w.endIndex - 2]
        if last == s || last == e || last == n, w.count - 1 >= minLength, beforeLast != s {
            if consider(cut1) { return found }
        }
        if (last == s || last == n) && beforeLast == e, w.count - 2 >= minLength,
           w[w.endIndex - 3] != s {
            if consider(cut2) { return found }
        }
        // Romance vowel endings.
        let (swap1, swap2): (UInt32, UInt32) = last == o ? (i, 0) : last == i ? (o, e) : last == a ? (e, 0)
            : last == e ? (i, a) : (0, 0)
        if swap1 != 0, consider(Token.fnvStep(cut1, swap1)) { return found }
        if swap2 != 0, consider(Token.fnvStep(cut1, swap2)) { return found }
        return found
    }


    /// Length, first and last letter of a word, as one key.
    static func endsKey<W: BidirectionalCollection<UInt32>>(_ w: W) -> UInt64 {
        UInt64(w.count) << 48 | UInt64(w.first ?? 0) << 24 | UInt64(w.last ?? 0)
    }

    /// Edits a name of `chars` letters may carry: none for short names, more for long ones.
    static func editBudget(chars: Int, words: Int, lowConfidence: Bool) -> Int {
        let c = lowConfidence ? chars + 3 : chars
        // One-word names need more letters: `Karotten` (carrots) is one edit from `Karoten`.
        if c < (words == 1 ? 8 : 7) { return 0 }
        if c < 14 { return 1 }
        if c < 24 { return 2 }
        return 3
    }

    /// Fuzzy candidates per stream word, computed on first use and kept for the parse.
    struct FuzzyCache {
        var start: [Int32]
        var end: [Int32]
        var pool: [Int32] = []
        /// Scratch for deletion hashes.
        var probes: [UInt64] = []
        var suffix: [UInt64] = []

        init(count: Int) {
            start = [Int32](repeating: -1, count: count)
            end = [Int32](repeating: -1, count: count)
        }
    }
}
