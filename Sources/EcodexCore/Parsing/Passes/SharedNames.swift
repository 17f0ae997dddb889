/// Names that share words with a neighbour joined by `and` (`sodium and potassium citrates`),
/// read by the names pass.
extension ParseSession {
    /// A name shared by two words joined by `and`, read after a name that ends in the first:
    /// `carbonates acides d'ammonium et de sodium` also names `carbonates acides de sodium`,
    /// `citrato di sodio e di potassio` also `citrato di potassio` (the prepositions are stop words).
    /// The other word must complete a known name on its own, with no slip.
    func distributed(_ stream: UnsafeBufferPointer<NameIndex.StreamWord>, after match: NameIndex.Match,
                     index: NameIndex, scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        let end = match.endWord
        guard match.endWord - match.startWord >= 2, end + 1 < stream.count, !stream[end].barrierBefore,
              !stream[end + 1].barrierBefore, isAnd(Int(stream[end].token)) else { return nil }
        var words = Array(stream[match.startWord..<(end - 1)])
        words.append(stream[end + 1])
        var shared = sharedName(words, replacing: words.count - 1, not: match.target.code, index: index, scalars: scalars)
        shared?.phrase = Int(stream[match.startWord].token)..<Int(stream[end + 1].tokenEnd)
        return shared
    }

    /// The same with the shared word at the end, English and German style, read before a name
    /// that ends in it: `sodium and potassium citrates` also names `sodium citrates`.
    func distributed(_ stream: UnsafeBufferPointer<NameIndex.StreamWord>, before match: NameIndex.Match,
                     index: NameIndex, scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        let start = match.startWord
        guard match.endWord - start >= 2, start >= 2, !stream[start].barrierBefore, !stream[start - 1].barrierBefore,
              isAnd(Int(stream[start - 1].token)) else { return nil }
        // The word must not end a longer name found before (`lactic acid and …`).
        let first = Int(stream[start - 2].token)
        if let last = nameHits.last, last.tokens.contains(first), last.tokens != first..<Int(stream[start - 2].tokenEnd) {
            return nil
        }
        var words = [stream[start - 2]]
        words += stream[(start + 1)..<match.endWord]
        var shared = sharedName(words, replacing: 0, not: match.target.code, index: index, scalars: scalars)
        shared?.phrase = Int(stream[start - 2].token)..<Int(stream[match.endWord - 1].tokenEnd)
        return shared
    }

    /// A candidate for `words` when they are exactly one known name other than `code`, its tokens
    /// those of the word at `replacing`.
    func sharedName(_ words: [NameIndex.StreamWord], replacing sharedIndex: Int, not code: ECode?, index: NameIndex,
                    scalars: UnsafeBufferPointer<UInt32>) -> Candidate? {
        var words = words
        for position in words.indices {
            words[position].barrierBefore = false
            words[position].fuzzyEligible = false
        }
        var cache = NameIndex.FuzzyCache(count: words.count)
        guard let match = words.withUnsafeBufferPointer({ index.longestMatch($0, at: 0, scalars: scalars, cache: &cache) }),
              match.endWord == words.count, match.edits == 0, let found = match.target.code, found != code else { return nil }
        let sharedWord = words[sharedIndex]
        return Candidate(code: found, tokens: Int(sharedWord.token)..<Int(sharedWord.tokenEnd), kind: .name,
                         contextOnly: match.target.contextOnly, isCode: false)
    }
}
