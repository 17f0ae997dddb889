/// Pass: prefixed codes (`E330`, `INS 420`), which need no context.
extension ParseSession {
    /// Prefixed codes, which need no context.
    mutating func readPrefixedCodes() {
        var position = 0
        while position < tokens.count {
            let token = tokens[position]
            let lead = norm.scalars[Int(token.start)]
            // A code token has a digit (`E330`, `E2l1`, `F129`) or is a bare prefix (`E`, `INS`, `SIN`,
            // and `lNS` or `1NS` read for `INS`).
            let candidate = token.kind == .word
                ? ((lead == 0x45 || lead == 0x49 || lead == 0x53 || lead == 0x46 || lead == 0x43)
                    && (token.hasDigit || token.length == 1 || token.length == 3)
                    || CodeReader.isINSSlip(norm.scalars[Int(token.start)..<Int(token.end)])
                    || CodeReader.isBracketSlipE(norm.scalars[Int(token.start)..<Int(token.end)]) && (token.hasDigit || token.length == 2))
                : (token.key == 0xA3 || token.key == 0x20AC)
            if candidate {
                let hits = reader.readPrefixed(at: position)
                if let last = hits.last {
                    for hit in hits { for tokenIndex in hit.tokens { consumed[tokenIndex] = true } }
                    codeHits += hits
                    position = max(position + 1, last.tokens.upperBound)
                    continue
                }
            }
            position += 1
        }
    }
}
