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
        for h in codeHits {
            if !h.known {
                // On a photo, an unknown code read from unsure words is more likely noise than a new additive.
                let sure = ocr.flatMap { $0.isEmpty ? nil : $0.mean(over: byteRange(h.tokens)) } ?? 1
                if !h.needsContext, sure >= Self.sureConfidence { noteUnmatched(h.code) }
                continue
            }
            var c = Candidate(code: h.code, tokens: h.tokens, kind: h.kind, needsContext: h.needsContext, isCode: true)
            if spelledOutUnsure(h.tokens) || brokenOverLinesUnsure(h.tokens) { (c.needsContext, c.spelledOut) = (true, true) }
            candidates.append(c)
        }
        let names = nameHits.filter { n in !n.tokens.contains(where: { consumed[$0] }) }.map(caramelProcessNamed)
        // A name inside a caramel's process words (`ammonia` of `caramel (ammonia sulphite process)`)
        // is part of the caramel's name, not E527.
        let processes = names.filter { $0.code.number == Self.caramel.number && $0.code.letter != nil }.map(\.tokens)
        candidates += names.filter { n in
            !processes.contains { $0 != n.tokens && $0.contains(n.tokens.lowerBound) && $0.contains(n.tokens.upperBound - 1) }
        }.map(caramelClassNamed)
        candidates.sort { $0.tokens.lowerBound < $1.tokens.lowerBound }
    }

    /// Merges `citric acid (E330)`, `E330 (citric acid)` and `acide citrique E-330` into one candidate.
    mutating func mergeCandidates() {
        merged = []
        var c = 0
        while c < candidates.count {
            let a = candidates[c]
            if c + 1 < candidates.count, a.isCode != candidates[c + 1].isCode,
               Self.sameAdditive(a.code, candidates[c + 1].code),
               joinable(from: a.tokens.upperBound, to: candidates[c + 1].tokens.lowerBound,
                        closingAfter: candidates[c + 1].tokens.upperBound) {
                let b = candidates[c + 1]
                var best = a.isCode ? a : b
                let other = a.isCode ? b : a
                if best.code.isAncestor(of: other.code) { best.code = other.code }
                best.tokens = a.tokens.lowerBound..<b.tokens.upperBound
                merged.append(MergedCandidate(parts: [a, b], best: best))
                c += 2
                continue
            }
            merged.append(MergedCandidate(parts: [a], best: a))
            c += 1
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
