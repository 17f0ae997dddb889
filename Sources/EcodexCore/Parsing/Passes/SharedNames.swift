/// Names that share words with a neighbour joined by `and` (`sodium and potassium citrates`),
/// read by the names pass.
extension ParseSession {
    /// A name shared by two words joined by `and`, read after a name that ends in the first:
    /// `carbonates acides d'ammonium et de sodium` also names `carbonates acides de sodium`,
    /// `citrato di sodio e di potassio` also `citrato di potassio` (the prepositions are stop words).
    /// The other word must complete a known name on its own, with no slip.
    func distributed(_ stream: UnsafeBufferPointer<NameIndex.StreamWord>, after m: NameIndex.Match,
                             index: NameIndex, scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        let e = m.endWord
        guard m.endWord - m.startWord >= 2, e + 1 < stream.count, !stream[e].barrierBefore,
              !stream[e + 1].barrierBefore, isAnd(Int(stream[e].token)) else { return nil }
        var words = Array(stream[m.startWord..<(e - 1)])
        words.append(stream[e + 1])
        var c = sharedName(words, replacing: words.count - 1, not: m.target.code, index: index, scalars: scalars)
        c?.phrase = Int(stream[m.startWord].token)..<Int(stream[e + 1].tokenEnd)
        return c
    }

    /// The same with the shared word at the end, English and German style, read before a name
    /// that ends in it: `sodium and potassium citrates` also names `sodium citrates`.
    func distributed(_ stream: UnsafeBufferPointer<NameIndex.StreamWord>, before m: NameIndex.Match,
                             index: NameIndex, scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        let s = m.startWord
        guard m.endWord - s >= 2, s >= 2, !stream[s].barrierBefore, !stream[s - 1].barrierBefore,
              isAnd(Int(stream[s - 1].token)) else { return nil }
        // The word must not end a longer name found before (`lactic acid and …`).
        let first = Int(stream[s - 2].token)
        if let last = nameHits.last, last.tokens.contains(first), last.tokens != first..<Int(stream[s - 2].tokenEnd) {
            return nil
        }
        var words = [stream[s - 2]]
        words += stream[(s + 1)..<m.endWord]
        var c = sharedName(words, replacing: 0, not: m.target.code, index: index, scalars: scalars)
        c?.phrase = Int(stream[s - 2].token)..<Int(stream[m.endWord - 1].tokenEnd)
        return c
    }

    /// A candidate for `words` when they are exactly one known name other than `code`, its tokens
    /// those of the word at `replacing`.
    func sharedName(_ words: [NameIndex.StreamWord], replacing r: Int, not code: ECode?, index: NameIndex,
                            scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        var words = words
        for k in words.indices {
            words[k].barrierBefore = false
            words[k].fuzzyEligible = false
        }
        var cache = NameIndex.FuzzyCache(count: words.count)
        guard let d = words.withUnsafeBufferPointer({ index.longestMatch($0, at: 0, scalars: scalars, cache: &cache) }),
              d.endWord == words.count, d.edits == 0, let found = d.target.code, found != code else { return nil }
        let w = words[r]
        return Candidate(code: found, tokens: Int(w.token)..<Int(w.tokenEnd), kind: .name,
                         contextOnly: d.target.contextOnly, isCode: false)
    }
}
