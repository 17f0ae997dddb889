/// The names pass: names and class words over the words codes did not take.
///
/// Two steps: `nameStream` turns tokens into the words the name trie walks (the word-level
/// repairs run there), then the walk reads the longest name at each word, notes class words on
/// the structure and keeps each additive name as a candidate.
extension ParseSession {
    mutating func matchNames() {
        let stream = nameStream()
        var fuzzyCache = NameIndex.FuzzyCache(count: stream.count)
        // Unsafe views keep the recursive trie walk free of retain/release traffic; so does a local
        // index: read through the mutated `self` inside the closure, it was copied for every word.
        let index = self.index
        stream.withUnsafeBufferPointer { streamBuffer in
            norm.scalars.withUnsafeBufferPointer { scalarBuffer in
                var position = 0
                while position < streamBuffer.count {
                    guard let found = index.longestMatch(streamBuffer, at: position, scalars: scalarBuffer,
                                                         cache: &fuzzyCache) else {
                        position += 1
                        continue
                    }
                    let match = splitAtFullStop(found, in: streamBuffer, index: index, scalars: scalarBuffer,
                                                cache: &fuzzyCache)
                    position = noteMatch(match, in: streamBuffer, index: index, scalars: scalarBuffer)
                }
            }
        }
    }

    /// A name read across a full stop (`ASPARTAME. ACÉSULFAME-K` as their salt E962) is two when
    /// the words before the stop are a name of their own that needs no context; OCR's stray stop
    /// inside one name (`CARAMEL. COLOR`) leaves it whole.
    private func splitAtFullStop(_ match: NameIndex.Match, in stream: UnsafeBufferPointer<NameIndex.StreamWord>,
                                 index: NameIndex, scalars: UnsafeBufferPointer<UInt32>,
                                 cache: inout NameIndex.FuzzyCache) -> NameIndex.Match {
        guard let stop = (match.startWord + 1..<match.endWord).first(where: {
                  IngredientStructure.endsSentence(tokens, Int(stream[$0].token) - 1) }),
              let before = index.longestMatch(UnsafeBufferPointer(rebasing: stream[..<stop]), at: match.startWord,
                                              scalars: scalars, cache: &cache),
              before.endWord == stop, before.target.code != nil, !before.target.contextOnly else { return match }
        return before
    }

    /// Notes what `match` found: a class word on the structure, an additive name as a candidate,
    /// with the names it shares with a neighbour (`SharedNames`). Returns the stream position
    /// the walk goes on from.
    private mutating func noteMatch(_ match: NameIndex.Match, in stream: UnsafeBufferPointer<NameIndex.StreamWord>,
                                    index: NameIndex, scalars: UnsafeBufferPointer<UInt32>) -> Int {
        let range = Int(stream[match.startWord].token)..<Int(stream[match.endWord - 1].tokenEnd)
        // A word read by its edge loss counts as a compound's last part does.
        let viaCompound = match.edgeLoss || (match.startWord..<match.endWord).contains { stream[$0].compound }
        noteClassWord(match, at: range, viaCompound: viaCompound)
        if let code = match.target.code {
            if let shared = distributed(stream, before: match, index: index, scalars: scalars) {
                // The earlier word may have matched on its own (`sodium`): the shared name replaces it.
                if let last = nameHits.last, last.tokens == shared.tokens { nameHits.removeLast() }
                nameHits.append(shared)
            }
            var candidate = Candidate(code: code, tokens: range, kind: match.edits > 0 ? .fuzzy : .name,
                                      edits: match.edits, contextOnly: match.target.contextOnly, isCode: false)
            candidate.compound = viaCompound
            nameHits.append(candidate)
        }
        if match.target.code != nil, let shared = distributed(stream, after: match, index: index, scalars: scalars) {
            nameHits.append(shared)
            return match.endWord + 2
        }
        return match.endWord
    }

    /// A class word sets its item's function. Compounds name additives by their source; a class
    /// word read in the tail of an unknown word (`lukcorantes` as Portuguese `corantes`) is more
    /// likely a slip, and one in a negation's scope governs nothing.
    private mutating func noteClassWord(_ match: NameIndex.Match, at range: Range<Int>, viaCompound: Bool) {
        guard !viaCompound, !negated[range.lowerBound], match.target.function != nil || match.target.nutrient else {
            return
        }
        let weak = match.edits > 0 && weakClassWord(range)
        structure.noteClass(at: range, function: match.target.function, nutrient: match.target.nutrient, weak: weak)
        classHits.append(ClassHit(tokens: range, function: match.target.function, nutrient: match.target.nutrient,
                                  weak: weak))
    }
}
