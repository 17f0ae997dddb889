/// Pass: prefixed codes (`E330`, `INS 420`), which need no context.
extension ParseSession {
    /// Prefixed codes, which need no context.
    mutating func readPrefixedCodes() {
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            let lead = norm.scalars[Int(t.start)]
            // A code token has a digit (`E330`, `E2l1`, `F129`) or is a bare prefix (`E`, `INS`, `SIN`,
            // and `lNS` or `1NS` read for `INS`).
            let candidate = t.kind == .word
                ? ((lead == 0x45 || lead == 0x49 || lead == 0x53 || lead == 0x46 || lead == 0x43)
                    && (t.hasDigit || t.length == 1 || t.length == 3)
                    || CodeReader.isINSSlip(norm.scalars[Int(t.start)..<Int(t.end)])
                    || CodeReader.isBracketSlipE(norm.scalars[Int(t.start)..<Int(t.end)]) && (t.hasDigit || t.length == 2))
                : (t.key == 0xA3 || t.key == 0x20AC)
            if candidate {
                let hits = reader.readPrefixed(at: i)
                if let last = hits.last {
                    for h in hits { for k in h.tokens { consumed[k] = true } }
                    codeHits += hits
                    i = max(i + 1, last.tokens.upperBound)
                    continue
                }
            }
            i += 1
        }
    }
}
