/// Pass: known codes and names as candidates in label order (with the caramel repairs), then
/// `citric acid (E330)` merged into one.
extension ParseSession {
    mutating func noteUnmatched(_ code: ECode) {
        if unmatchedSeen.insert(code.description).inserted { result.unmatched.append(code.description) }
    }

    /// Known codes and names in label order; unknown well-formed codes go to `unmatched`.
    mutating func collectCandidates() {
        candidates = []
        codeHits.sort { $0.tokens.lowerBound < $1.tokens.lowerBound }
        for hit in codeHits {
            if !hit.known {
                // On a photo, an unknown code read from unsure words is more likely noise than a new additive.
                let sure = ocr.flatMap { $0.isEmpty ? nil : $0.mean(over: byteRange(hit.tokens)) } ?? 1
                if !hit.needsContext, sure >= Self.sureConfidence { noteUnmatched(hit.code) }
                continue
            }
            var candidate = Candidate(code: hit.code, tokens: hit.tokens, kind: hit.kind, needsContext: hit.needsContext,
                                      isCode: true)
            if spelledOutUnsure(hit.tokens) || brokenOverLinesUnsure(hit.tokens) {
                (candidate.needsContext, candidate.spelledOut) = (true, true)
            }
            candidates.append(candidate)
        }
        let names = nameHits.filter { name in !name.tokens.contains(where: { consumed[$0] }) }.map(caramelProcessNamed)
        // A name inside a caramel's process words (`ammonia` of `caramel (ammonia sulphite process)`)
        // is part of the caramel's name, not E527.
        let processes = names.filter { $0.code.number == Self.caramel.number && $0.code.letter != nil }.map(\.tokens)
        candidates += names.filter { name in
            !processes.contains { $0 != name.tokens && $0.contains(name.tokens.lowerBound) && $0.contains(name.tokens.upperBound - 1) }
        }.map(caramelClassNamed)
        candidates.sort { $0.tokens.lowerBound < $1.tokens.lowerBound }
    }

    /// Merges `citric acid (E330)`, `E330 (citric acid)` and `acide citrique E-330` into one candidate.
    mutating func mergeCandidates() {
        merged = []
        var position = 0
        while position < candidates.count {
            let first = candidates[position]
            if position + 1 < candidates.count, first.isCode != candidates[position + 1].isCode,
               Self.sameAdditive(first.code, candidates[position + 1].code),
               joinable(from: first.tokens.upperBound, to: candidates[position + 1].tokens.lowerBound,
                        closingAfter: candidates[position + 1].tokens.upperBound) {
                let second = candidates[position + 1]
                var best = first.isCode ? first : second
                let other = first.isCode ? second : first
                if best.code.isAncestor(of: other.code) { best.code = other.code }
                best.tokens = first.tokens.lowerBound..<second.tokens.upperBound
                merged.append(MergedCandidate(parts: [first, second], best: best))
                position += 2
                continue
            }
            merged.append(MergedCandidate(parts: [first], best: first))
            position += 1
        }
    }

    /// Whether only brackets, a hyphen, spaces or the item's class word separate two pieces
    /// naming one additive.
    func joinable(from a: Int, to b: Int, closingAfter end: Int) -> Bool {
        guard b >= a, b - a <= 4 else { return false }
        var opened = false
        for k in a..<b {
            let t = tokens[k]
            // `caramel colour (150d)`: the item's class word may sit between a name and its code.
            if t.kind == .word, let cls = item(k)?.classTokens, cls.contains(k) { continue }
            guard t.kind == .punct, k - a < 2 || tokens[a].kind == .word else { return false }
            switch t.key {
            case 0x28, 0x5B: opened = true
            case 0x2D, 0x3A: break
            default: return false
            }
        }
        // `citric acid (E330, E331)`: the bracket must hold just the one code.
        if opened {
            guard end < tokens.count, tokens[end].kind == .punct,
                  tokens[end].key == 0x29 || tokens[end].key == 0x5D else { return false }
        }
        return true
    }
}
