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

    private static func saltAdjectiveForm(of key: [[UInt32]]) -> [[UInt32]]? {
        guard key.count >= 2, let salt = key[key.count - 2].last, salt == 0x4F,  // …O
              let form = saltAdjectives.first(where: { $0.metal == key[key.count - 1] }) else { return nil }
        var out = key
        out[out.count - 1] = form.adjective
        return out
    }

    /// Plural endings of the languages in the class table (`-s`, `-es`, `-e`, `-en`, `-n`, Italian `-e`→`-i`).
    private static func pluralForms(of word: [UInt32]) -> [[UInt32]] {
        let s: UInt32 = 0x53, e: UInt32 = 0x45, n: UInt32 = 0x4E, i: UInt32 = 0x49
        var out = [word + [s], word + [e, s], word + [e], word + [e, n], word + [n]]
        if word.last == e || word.last == 0x4F { out.append(word.dropLast() + [i]) }
        return out
    }

    private static let prime: UInt64 = 0x100_0000_01B3
    /// P^k for every word length the deletion index handles.
    private static let powers: [UInt64] = {
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

    /// Known words within one edit (substitution, insertion, deletion or adjacent swap) of `word`.
    func fuzzyCandidates(_ word: ArraySlice<UInt32>, into found: inout [Int32], cache: inout FuzzyCache) {
        guard word.count >= Self.fuzzyMinLength - 1, word.count <= 40 else { return }
        let first = found.count
        let t = tables
        if oneSlipWords(of: word, into: &found, since: first, cache: &cache, encode: { $0 }) { return }
        // No word one edit away: a long word may carry two shape slips. Such candidates go in as
        // `-(id + 1)`, so the walk charges them two edits.
        if found.count == first, word.count >= Self.twoSlipMinLength, let bucket = t.longBucket(Self.endsKey(word)) {
            for w in bucket where EditDistance.isTwoShapeSlips(t.word(w), word) {
                found.append(-w - 1)
                if found.count - first >= 8 { return }
            }
        }
        if found.count == first, word.count >= Self.mergeSlipMinLength {
            mergeSlipCandidates(word, into: &found, cache: &cache)
        }
        dropElementSwaps(word, &found, since: first)
        if found.count > first, spellsKnownWordWithFirstLetterLost(word) { found.removeSubrange(first...) }
    }

    /// Whether `word` with one letter put before it is a known word (`scorbic`: `ascorbic`). Then a
    /// slip inside it (`scorbic` as `sorbic`, sorbic acid) is no likelier than a first letter lost
    /// at the print's edge (ascorbic acid): neither is read.
    private func spellsKnownWordWithFirstLetterLost(_ word: ArraySlice<UInt32>) -> Bool {
        var known = false
        Self.forEachSpellingWithLetterAdded(to: word, atStart: true) { spelled in
            known = tables.vocab.get(Token.hash(spelled)) >= 0
            return known
        }
        return known
    }

    /// The ids of `letters` as a known word and of its other number (`formIDs`), those there are.
    private func knownWordAndForms<W: RandomAccessCollection<UInt32>>(_ letters: W) -> [Int32] where W.Index == Int {
        let own = tables.vocab.get(Token.hash(letters))
        let forms = letters.count >= Self.wordFormMinLength ? formIDs(letters, own: own) : (-1, -1)
        return [own, forms.0, forms.1].filter { $0 >= 0 }
    }

    /// The two known words (the second perhaps in its other number) that `word` spells with the
    /// space between them lost, when they begin a name together (`potassiumcitrate`,
    /// `phosphoricacid`), each of three letters or more, and the cut; nil when no cut or several do.
    func gluedNameWords(_ word: ArraySlice<UInt32>) -> (first: Int32, second: Int32, cut: Int)? {
        let n = word.count, b = word.startIndex
        guard n >= 6, n <= 40 else { return nil }
        var found: (Int32, Int32, Int)?
        for cut in 3...(n - 3) {
            let first = tables.vocab.get(Token.hash(word[b..<(b + cut)]))
            guard first >= 0 else { continue }
            let child = tables.edges.get(Self.edgeKey(0, first))
            guard child >= 0 else { continue }
            let rest = word[(b + cut)...]
            guard let second = knownWordAndForms(rest).first(where: { tables.edges.get(Self.edgeKey(child, $0)) >= 0 })
            else { continue }
            if found != nil { return nil }
            found = (first, second, cut)
        }
        return found.map { (first: $0.0, second: $0.1, cut: $0.2) }
    }

    /// The one known word that `word` spells with its first letter lost, or its last lost or
    /// doubled (`atriumcitrate`, `Sorbitsiru`, `Cyclamatt`); nil when none or several do.
    func edgeLossWord(_ word: ArraySlice<UInt32>) -> Int32? {
        var found: Int32 = -1
        var several = false
        func consider(_ spelled: some Sequence<UInt32>) -> Bool {
            let w = tables.vocab.get(Token.hash(spelled))
            if w >= 0, w != found {
                several = found >= 0
                found = w
            }
            return several
        }
        _ = consider(word.dropLast())
        if !several { Self.forEachSpellingWithLetterAdded(to: word, atStart: false, consider) }
        if !several { Self.forEachSpellingWithLetterAdded(to: word, atStart: true, consider) }
        return found >= 0 && !several ? found : nil
    }

    /// Calls `body` with `letters` spelled with each capital A–Z put before it (`atStart`) or after
    /// it, until `body` returns true; not at all unless `letters` are capitals only.
    static func forEachSpellingWithLetterAdded<C: Collection<UInt32>>(to letters: C, atStart: Bool,
                                                                      _ body: ([UInt32]) -> Bool) {
        guard letters.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return }
        var spelled = atStart ? [0] + Array(letters) : Array(letters) + [0]
        let slot = atStart ? 0 : spelled.count - 1
        for added in UInt32(0x41)...UInt32(0x5A) {
            spelled[slot] = added
            if body(spelled) { return }
        }
    }

    /// Known words one plausible slip from `word` (no two-slip or merged-letter candidates).
    func oneSlipCandidates(_ word: ArraySlice<UInt32>, into found: inout [Int32], cache: inout FuzzyCache) {
        guard word.count >= Self.fuzzyMinLength - 1, word.count <= 40 else { return }
        let first = found.count
        _ = oneSlipWords(of: word, into: &found, since: first, cache: &cache, encode: { $0 })
        dropElementSwaps(word, &found, since: first)
    }

    /// Removes the candidates (ids, or `-(id + 1)` for two-slip ones) that would read `word`'s
    /// element as another (`EditDistance.swapsElement`: `kalsiumlaktat` is not `kaliumlaktat`).
    private func dropElementSwaps(_ word: ArraySlice<UInt32>, _ found: inout [Int32], since first: Int) {
        guard found.count > first else { return }
        let observed = EditDistance.elements(in: word)
        guard observed != 0 else { return }
        let t = tables
        var k = first
        while k < found.count {
            let id = found[k] >= 0 ? found[k] : -found[k] - 1
            if EditDistance.swapsElement(t.word(id), observed: observed) { found.remove(at: k) } else { k += 1 }
        }
    }

    /// Appends (as `encode(id)`) the known words one plausible slip from `word`, not at its first
    /// or last letter, skipping those already appended since `since`; true once 8 are there.
    /// Edits at a word's first or last letter make other words (`pectinas` / `pectinase`,
    /// `carbonates` / `carbonated`, `cólico` / `fólico`), not OCR slips; the exceptions are a
    /// first or last letter OCR reads for another by shape (`EditDistance.isFirstLetterShapeSlip`,
    /// `isLastLetterShapeSlip`).
    private func oneSlipWords(of word: ArraySlice<UInt32>, into found: inout [Int32], since first: Int,
                              cache: inout FuzzyCache, encode: (Int32) -> Int32) -> Bool {
        let t = tables
        var full = false
        forEachDeletionNeighbour(of: word, cache: &cache) { w in
            let k = t.word(w)
            if !found[first...].contains(encode(w)),
               EditDistance.isInternalEdit(k, word) ? EditDistance.withinOne(k, word) && EditDistance.isPlausibleSlip(k, word)
                   : EditDistance.isFirstLetterShapeSlip(k, word) || EditDistance.isLastLetterShapeSlip(k, word) {
                found.append(encode(w))
                if found.count - first >= 8 { full = true }
            }
            return full
        }
        return full
    }

    /// Calls `body` with every known word that shares a one-deletion hash with `word` (a
    /// superset of the words within one edit; `body` checks), until it returns true.
    private func forEachDeletionNeighbour(of word: ArraySlice<UInt32>, cache: inout FuzzyCache, _ body: (Int32) -> Bool) {
        let t = tables
        cache.probes.removeAll(keepingCapacity: true)
        Self.deletionHashes(word, into: &cache.probes, suffix: &cache.suffix)
        for p in cache.probes {
            let b = Int(p >> t.deletionShift)
            let tag = UInt32(truncatingIfNeeded: p)
            var posting = Int(t.deletionStart[b])
            let end = Int(t.deletionStart[b + 1])
            while posting < end {
                defer { posting += 1 }
                if t.deletionTag[posting] == tag, body(t.deletionWord[posting]) { return }
            }
        }
    }

    /// Calls `body` with `word` spelled with one group of `mergeSlips` undone, for each place a
    /// group starts at letter `first` or later and ends by letter `end(group)`, and with the letter
    /// where the group ended; stops once `body` returns true.
    private static func forEachMergeVariant(of word: ArraySlice<UInt32>, first: Int, end: ([UInt32]) -> Int,
                                            _ body: (_ variant: [UInt32], _ groupEnd: Int) -> Bool) {
        let b = word.startIndex
        var variant: [UInt32] = []
        for (from, to) in mergeSlips {
            var i = first
            while i + from.count <= end(from) {
                defer { i += 1 }
                guard word[b + i] == from[0], from.count == 1 || word[b + i + 1] == from[1] else { continue }
                variant.removeAll(keepingCapacity: true)
                variant.append(contentsOf: word[b..<(b + i)])
                variant.append(contentsOf: to)
                variant.append(contentsOf: word[(b + i + from.count)...])
                if body(variant, i + from.count) { return }
            }
        }
    }

    /// Shortest unknown word in which OCR may have merged or split letters.
    static let mergeSlipMinLength = 7

    /// The merged letters OCR reads at a word's end, as in the `-ium` of salts: `rn` for `m`.
    static let finalMergeSlip: [UInt32] = [0x52, 0x4E]

    /// Letter groups that OCR reads as one letter and back (`cl` as `d`, `rn` as `m`,
    /// `li` as `h`, `ii` as `u`, `vv` as `w`, `ri` as `n`): small print blurs the gap between two
    /// thin letters, or splits one wide letter. Both directions, folded to capitals.
    static let mergeSlips: [(from: [UInt32], to: [UInt32])] = {
        let pairs = [("CL", "D"), ("RN", "M"), ("LI", "H"), ("II", "U"), ("VV", "W"), ("RI", "N")]
        return pairs.flatMap { a, b -> [(from: [UInt32], to: [UInt32])] in
            let x = a.unicodeScalars.map(\.value), y = b.unicodeScalars.map(\.value)
            return [(x, y), (y, x)]
        }
    }()

    /// Known words that `word` spells once one merged or split letter group inside it is
    /// undone (one edit: `Natriumcydamat` is `natriumcyclamat` with `cl` read as `d`), or within
    /// one more plausible slip of that (two edits: `Natriumeydamat`, with `c` also read as `e`;
    /// read so on a real phone frame of the development set).
    /// Groups at the word's first or last letter are left alone, as for single edits.
    func mergeSlipCandidates(_ word: ArraySlice<UInt32>, into found: inout [Int32], cache: inout FuzzyCache) {
        let first = found.count
        let t = tables
        let n = word.count
        // `rn` read for a final `m` is the one group taken at a word's end (`Sodiurn`, `Calciurn`).
        Self.forEachMergeVariant(of: word, first: 1, end: { $0 == Self.finalMergeSlip ? n : n - 1 }) { variant, groupEnd in
            let exact = t.vocab.get(Token.hash(variant))
            if exact >= 0 {
                if !found[first...].contains(exact) { found.append(exact) }
            } else if groupEnd < n,
                      oneSlipWords(of: variant[...], into: &found, since: first, cache: &cache, encode: { -$0 - 1 }) {
                return true
            }
            return found.count - first >= 8
        }
        // At a word's start only `cl` read for `d` and `rn` for `m`, and only into a known word as it
        // stands (`Cliglyceride`, `rnagnesium`): no word of a label language starts so and means
        // the other.
        for (from, to) in Self.initialMergeSlips where word.count > from.count && word.prefix(from.count).elementsEqual(from) {
            let w = t.vocab.get(Token.hash(to + word.dropFirst(from.count)))
            if w >= 0, !found[first...].contains(w) { found.append(w) }
        }
    }

    /// The merged letters OCR reads at a word's start: `cl` for `d`, `rn` for `m`.
    static let initialMergeSlips: [(from: [UInt32], to: [UInt32])] = [([0x43, 0x4C], [0x44]), ([0x52, 0x4E], [0x4D])]

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

    /// The longest key that starts at stream word `start`.
    func longestMatch(_ stream: UnsafeBufferPointer<StreamWord>, at start: Int, scalars: UnsafeBufferPointer<UInt32>,
                      cache: inout FuzzyCache) -> Match? {
        let w = stream[start]
        // Most words start no name: reject them before any search.
        if w.id >= 0 || w.forms.0 >= 0 {
            // A known word that starts no name may still be one that lost its last letter (`walk`).
            if !startsKey(w.id), !startsKey(w.forms.0), !startsKey(w.forms.1),
               w.id < 0 || w.compound || w.length < Int32(Self.lastLetterLostFirstWordMinLength)
                || lastLetterIndelWords(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], after: 0).isEmpty {
                return nil
            }
        } else if !w.fuzzyEligible && (w.compound || w.length < 3) {
            return nil
        }
        var best: Match?
        var steps = 0
        walk(stream, start: start, pos: start, node: 0, edits: 0, low: false, scalars: scalars, cache: &cache,
             best: &best, steps: &steps)
        if best == nil, w.edgeLoss >= 0 {
            let child = tables.edges.get(Self.edgeKey(0, w.edgeLoss))
            if child >= 0, tables.terminal[Int(child)] >= 0 {
                best = Match(startWord: start, endWord: start + 1, target: tables.target(tables.terminal[Int(child)]),
                             edits: 1, edgeLoss: true)
            }
        }
        return best
    }

    @inline(__always)
    private func startsKey(_ word: Int32) -> Bool {
        word >= 0 && tables.edges.get(Self.edgeKey(0, word)) >= 0
    }

    /// Depth-first over the trie; depth is bounded by the longest name, branching by the candidate cap.
    private func walk(_ stream: UnsafeBufferPointer<StreamWord>, start: Int, pos: Int, node: Int32, edits: Int,
                      low: Bool, scalars: UnsafeBufferPointer<UInt32>, cache: inout FuzzyCache, best: inout Match?,
                      steps: inout Int) {
        steps += 1
        guard steps <= 256, pos < stream.count else { return }
        let w = stream[pos]
        if pos > start && w.barrierBefore { return }
        let lowHere = low || w.lowConfidence
        // Inside a name, shorter words may change number too (`acides` / `acide`); looked up only
        // here, on the path of a match already begun, so ordinary words never pay for it.
        var inner: (Int32, Int32) = (-1, -1)
        if pos > start, w.tokenEnd == w.token + 1, w.scalarEnd - w.scalarStart >= Int32(Self.innerWordFormMinLength),
           w.scalarEnd - w.scalarStart < Int32(Self.wordFormMinLength) + 1 {
            inner = formIDs(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], own: w.id,
                            minLength: Self.innerWordFormMinLength)
        }
        if w.id >= 0 || w.forms.0 >= 0 || inner.0 >= 0 {
            var continues = false
            for word in [w.id, w.forms.0, w.forms.1, inner.0, inner.1] where word >= 0 {
                if (word == inner.0 || word == inner.1) && (word == w.forms.0 || word == w.forms.1) { continue }
                continues = continues || tables.edges.get(Self.edgeKey(node, word)) >= 0
                follow(stream, start: start, pos: pos, node: node, word: word, edits: edits, low: lowHere,
                       scalars: scalars, cache: &cache, best: &best, steps: &steps)
            }
            // A known word never changes, but for its last letter inside a name begun on the words
            // before, when no form of it continues the name: `sodium benzoat`, `sodium propionat`
            // (German and Romanian spell the anion so; the line's end cut the `e`).
            if w.id >= 0, !continues, pos > start, !w.compound, edits < 3, w.length >= Int32(Self.fuzzyMinLength) {
                for word in lastLetterIndelWords(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], after: node) {
                    follow(stream, start: start, pos: pos, node: node, word: word, edits: edits + 1, low: lowHere,
                           scalars: scalars, cache: &cache, best: &best, steps: &steps)
                }
            }
            // So may a name's first word when the rest of the name is read whole and long
            // (`firstWordSlipRestLetters`): `CALCIU CHLORIDE`, `sodiu ascorbate` (Romanian spells
            // the element so, last in its names). An exact reading of a longer name still wins.
            if w.id >= 0, pos == start, !w.compound, w.length >= Int32(Self.lastLetterLostFirstWordMinLength) {
                for word in lastLetterIndelWords(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], after: 0) {
                    firstWordSlip(stream, start: start, word: word, restLetters: Self.firstWordSlipRestLetters,
                                  low: lowHere, scalars: scalars, cache: &cache, best: &best, steps: &steps)
                }
            }
            // An unknown word that is only another number of a known word (`citriqu`, as if the
            // singular of `citriques`) may still be a slip of the word that continues the name,
            // when no form of it does (below).
            if w.id >= 0 || continues || pos == start { return }
        }
        // Inside a name begun on the words before, a word's first letter may be lost: at the edge of
        // the print where a line begins (a crop edge, the curve of a pack: `DIPOTASSIUM` /
        // `HOSPHATE`, `MONO-` / `ND DIGLYCERIDES`), or inside a line under glare or blur for a
        // word of `lostFirstLetterInLineMinLength` letters or more (`SOY ECITHIN`). One edit, for
        // unknown words only (a known word never changes), and only when every letter that
        // continues the name leads to one additive (`sodium` / `itrate` may be citrate or nitrate:
        // neither; `ND` may be `AND` or `UND`: both mean E471).
        if pos > start, w.lineStart || w.length >= Int32(Self.lostFirstLetterInLineMinLength), !w.compound,
           edits < 3, w.length >= 2, w.length < 40 {
            var agreed: Match?
            var conflict = false
            for word in lostFirstLetterWords(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)], after: node) {
                var found: Match?
                follow(stream, start: start, pos: pos, node: node, word: word, edits: edits + 1, low: lowHere,
                       scalars: scalars, cache: &cache, best: &found, steps: &steps)
                guard let f = found else { continue }
                if let a = agreed, a.target.code != f.target.code || a.target.function != f.target.function {
                    conflict = true
                    break
                }
                if f.beats(agreed) { agreed = f }
            }
            if !conflict, let m = agreed, m.beats(best) { best = m }
        }
        // Inside a name begun on the words before, a link word glued to the next word of the
        // name, its space lost (`acétate desodium`, `dioxyde decarbone`, `nitrite desodium`): the
        // rest, when it is a known word (or its other number) that continues the name.
        if pos > start, !w.compound, w.length >= 6, w.length < 40 {
            let letters = scalars[Int(w.scalarStart)..<Int(w.scalarEnd)]
            for link in Self.gluedLinkWords where letters.starts(with: link) && letters.count - link.count >= 4 {
                let rest = letters.dropFirst(link.count)
                for word in knownWordAndForms(rest) {
                    follow(stream, start: start, pos: pos, node: node, word: word, edits: edits, low: lowHere,
                           scalars: scalars, cache: &cache, best: &best, steps: &steps)
                }
            }
        }
        // Inside a name begun on the words before, a word read with a slip at its first or last
        // letter or with merged thin letters, or a short word (4 letters) with any one slip:
        // `farina di seml di carrube`, `Locust Bean Gurn`.
        // Alone such edits make other words; here only a word that continues the name counts,
        // and the whole name's edit budget still holds.
        if pos > start, !w.compound, edits < 3, w.length >= Int32(Self.fuzzyMinLength - 1) {
            let letters = scalars[Int(w.scalarStart)..<Int(w.scalarEnd)]
            for word in innerNameSlipWords(letters, after: node, short: !w.fuzzyEligible, bothEnds: false, cache: &cache) {
                follow(stream, start: start, pos: pos, node: node, word: word, edits: edits + 1, low: lowHere,
                       scalars: scalars, cache: &cache, best: &best, steps: &steps)
            }
        }
        // The first word of a name of several words, read with a slip at its first or last letter,
        // with merged thin letters, or with a letter lost or doubled at an end (`MOND. AND
        // DIGLYCERIDES`, `cide citrique`). Alone such edits make other words (`mono` / `mond`), so
        // here the rest of the name must be read without a slip and hold a long word's letters,
        // as a slip in a long word counts.
        // A long first word that only lost its last letter names its word by itself (`xantha gum`,
        // `carnaub wax`, `potassiu sorbate`): any rest read whole vouches for it.
        if pos == start, !w.compound, w.length >= 3 {
            let letters = scalars[Int(w.scalarStart)..<Int(w.scalarEnd)]
            for word in innerNameSlipWords(letters, after: 0, short: false, bothEnds: true, cache: &cache) {
                let known = tables.word(word)
                let lostLast = letters.count >= Self.lastLetterLostFirstWordMinLength && known.count == letters.count + 1
                    && zip(letters, known).allSatisfy { $0 == $1 }
                firstWordSlip(stream, start: start, word: word,
                              restLetters: lostLast ? 1 : Self.firstWordSlipRestLetters,
                              low: lowHere, scalars: scalars, cache: &cache, best: &best, steps: &steps)
            }
        }
        guard w.fuzzyEligible, edits < 3 else { return }
        if cache.start[pos] < 0 {
            cache.start[pos] = Int32(cache.pool.count)
            var pool = cache.pool
            cache.pool = []
            fuzzyCandidates(Array(scalars[Int(w.scalarStart)..<Int(w.scalarEnd)])[...], into: &pool, cache: &cache)
            cache.pool = pool
            cache.end[pos] = Int32(cache.pool.count)
        }
        var c = Int(cache.start[pos])
        while c < Int(cache.end[pos]) {
            let candidate = cache.pool[c]
            follow(stream, start: start, pos: pos, node: node, word: candidate >= 0 ? candidate : -candidate - 1,
                   edits: edits + (candidate >= 0 ? 1 : 2), low: lowHere,
                   scalars: scalars, cache: &cache, best: &best, steps: &steps)
            c += 1
        }
    }

    /// Reads the name that starts at `start` with its first word taken as the known `word` (one
    /// edit), when the rest of the name is read without a slip and holds `restLetters` letters or more.
    private func firstWordSlip(_ stream: UnsafeBufferPointer<StreamWord>, start: Int, word: Int32, restLetters: Int,
                               low: Bool, scalars: UnsafeBufferPointer<UInt32>, cache: inout FuzzyCache,
                               best: inout Match?, steps: inout Int) {
        var found: Match?
        follow(stream, start: start, pos: start, node: 0, word: word, edits: 1, low: low,
               scalars: scalars, cache: &cache, best: &found, steps: &steps)
        guard let f = found, f.edits == 1, f.endWord - start >= 2 else { return }
        let rest = stream[(start + 1)..<f.endWord].reduce(0) { $0 + Int($1.length) }
        if rest >= restLetters, f.beats(best) { best = f }
    }

    /// The known words that continue the name at trie `node` and that `letters` spells with one
    /// slip at its first or last letter (`EditDistance.isEndShapeSlip`), with one merged or split
    /// letter group (`mergeSlips`, at its ends too), with a letter lost or doubled at its end (five
    /// letters left) or, when `bothEnds`, at either end (three left; `isEdgeIndel`: inside a line,
    /// a word that lost its first letter is more often another word), or, when `short` (a
    /// word too short for fuzzy matching on its own), with any one plausible slip.
    private func innerNameSlipWords(_ letters: Slice<UnsafeBufferPointer<UInt32>>, after node: Int32, short: Bool,
                                    bothEnds: Bool, cache: inout FuzzyCache) -> [Int32] {
        guard letters.count <= 40 else { return [] }
        let t = tables
        let word = ArraySlice(letters)
        var words: [Int32] = []
        var observed: UInt8?  // the word's element stems, scanned for once a word continues the name
        func consider(_ w: Int32) -> Bool {
            guard w >= 0, !words.contains(w), t.edges.get(Self.edgeKey(node, w)) >= 0 else { return false }
            if observed == nil { observed = EditDistance.elements(in: word) }
            return !EditDistance.swapsElement(t.word(w), observed: observed!)
        }
        forEachDeletionNeighbour(of: word, cache: &cache) { w in
            guard consider(w) else { return false }
            let k = t.word(w)
            if EditDistance.isEndShapeSlip(k, word) || (short && EditDistance.isInternalEdit(k, word)
                && EditDistance.withinOne(k, word) && EditDistance.isPlausibleSlip(k, word))
                || EditDistance.isEdgeIndel(k, word, firstToo: bothEnds, minLength: bothEnds ? 3 : 5) {
                words.append(w)
            }
            return false
        }
        // Merged or split thin letters anywhere in the word (`Locust Bean Gurn`).
        Self.forEachMergeVariant(of: word, first: 0, end: { _ in word.count }) { variant, _ in
            let w = t.vocab.get(Token.hash(variant))
            if consider(w) { words.append(w) }
            return false
        }
        return words
    }

    /// The known words that `letters` spells with its last letter lost or doubled, and that
    /// continue the name at trie `node`: `benzoat` for `benzoate`.
    private func lastLetterIndelWords(_ letters: Slice<UnsafeBufferPointer<UInt32>>, after node: Int32) -> [Int32] {
        guard letters.count < 40, letters.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return [] }
        var words: [Int32] = []
        func consider(_ spelled: some Sequence<UInt32>) -> Bool {
            let w = tables.vocab.get(Token.hash(spelled))
            if w >= 0, !words.contains(w), tables.edges.get(Self.edgeKey(node, w)) >= 0 { words.append(w) }
            return false
        }
        _ = consider(letters.dropLast())
        Self.forEachSpellingWithLetterAdded(to: letters, atStart: false, consider)
        return words
    }

    /// The known words (or their other number, `citrate` / `citrates`) that `letters` spells with
    /// a letter put before it and that continue the name at trie `node`.
    private func lostFirstLetterWords(_ letters: Slice<UnsafeBufferPointer<UInt32>>, after node: Int32) -> [Int32] {
        var words: [Int32] = []
        Self.forEachSpellingWithLetterAdded(to: letters, atStart: true) { spelled in
            let own = tables.vocab.get(Token.hash(spelled))
            let forms = spelled.count >= Self.innerWordFormMinLength
                ? formIDs(spelled, own: own, minLength: Self.innerWordFormMinLength) : (-1, -1)
            for word in [own, forms.0, forms.1] where word >= 0 && tables.edges.get(Self.edgeKey(node, word)) >= 0 {
                if !words.contains(word) { words.append(word) }
            }
            return false
        }
        return words
    }

    private func follow(_ stream: UnsafeBufferPointer<StreamWord>, start: Int, pos: Int, node: Int32, word: Int32,
                        edits: Int, low: Bool, scalars: UnsafeBufferPointer<UInt32>, cache: inout FuzzyCache,
                        best: inout Match?, steps: inout Int) {
        let child = tables.edges.get(Self.edgeKey(node, word))
        guard child >= 0 else { return }
        let t = tables.terminal[Int(child)]
        if t >= 0 {
            let target = tables.target(t)
            if edits <= Self.editBudget(chars: target.chars, words: target.words, lowConfidence: low) {
                let m = Match(startWord: start, endWord: pos + 1, target: target, edits: edits)
                if m.beats(best) { best = m }
            }
        }
        walk(stream, start: start, pos: pos + 1, node: child, edits: edits, low: low, scalars: scalars,
             cache: &cache, best: &best, steps: &steps)
    }
}
