/// Repair: a caramel colour's process words name its class (`caramel (ammonia sulphite process)`).
extension ParseSession {
    func startsWithAny(_ k: Int, _ prefixes: [[UInt32]]) -> Bool {
        guard k >= 0, k < tokens.count, tokens[k].kind == .word else { return false }
        let w = norm.scalars[Int(tokens[k].start)..<Int(tokens[k].end)]
        return prefixes.contains { w.count >= $0.count && w.prefix($0.count).elementsEqual($0) }
    }

    /// A caramel colour's Codex process names its class (CXG 36: caustic sulphite, ammonia, sulphite
    /// ammonia caramel): `caramel (ammonia sulphite process)` after the name, or an ammonia word right
    /// before a sulphite caramel's name (`amonijačno-sulfitna karamela`, which the caustic sulphite
    /// caramel's `sulfitna karamela` would otherwise name): E150d for ammonia with sulphite, E150c for
    /// ammonia alone.
    func caramelProcessNamed(_ n: Candidate) -> Candidate {
        guard !n.isCode, n.code.number == Self.caramel.number else { return n }
        var refined = n
        var before = n.tokens.lowerBound - 1
        if before >= 0, tokens[before].kind == .punct, tokens[before].key == 0x2D { before -= 1 }
        if n.code == ECode(number: 150, letter: "b"), startsWithAny(before, Self.ammoniaPrefixes) {
            refined.code = ECode(number: 150, letter: "d")
            refined.tokens = before..<n.tokens.upperBound
        } else if n.code == Self.caramel || n.code == ECode(number: 150, letter: "a") {
            // `Zuckerkulör (Ammoniak)`: the plain caramel's name stands for caramel colour at large.
            var j = n.tokens.upperBound
            if let cls = item(n.tokens.lowerBound)?.classTokens, cls.lowerBound == j { j = cls.upperBound }
            guard j < tokens.count, tokens[j].kind == .punct, tokens[j].key == 0x28 || tokens[j].key == 0x5B else { return n }
            var ammonia = false, sulphite = false, end = j + 1
            while end < tokens.count, end - j <= 6, tokens[end].kind != .punct || tokens[end].key == 0x2D {
                ammonia = ammonia || startsWithAny(end, Self.ammoniaPrefixes)
                sulphite = sulphite || startsWithAny(end, Self.sulphitePrefixes)
                end += 1
            }
            guard ammonia, end < tokens.count, tokens[end].key == 0x29 || tokens[end].key == 0x5D else { return n }
            refined.code = ECode(number: 150, letter: sulphite ? "d" : "c")
            refined.tokens = n.tokens.lowerBound..<(end + 1)
        } else {
            return n
        }
        return standingAlone(refined, else: n)
    }

    /// `refined`, a caramel colour whose class its words named, standing without further context;
    /// `n` when the store has no such class.
    func standingAlone(_ refined: Candidate, else n: Candidate) -> Candidate {
        guard reader.knownCodes.contains(refined.code) else { return n }
        var c = refined
        c.contextOnly = false
        c.needsContext = false
        return c
    }
}
