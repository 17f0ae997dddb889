import EcodexCore
import Foundation

/// Finding additives by name for `scan lookup`: exact and alias matches, then partial and
/// fuzzy ones through the trigram index, ranked by kind, score and label frequency.
extension AdditiveStore {
    /// Additives whose name or alias is exactly `name` (case- and diacritic-insensitive,
    /// see `NameKey`): main names first, then by how often they appear on labels.
    /// One match per additive.
    public func lookup(name: String) throws -> [NameMatch] {
        let key = NameKey.normalize(name)
        guard !key.isEmpty else { return [] }
        return try withConnection { try exactMatches(key).map(\.match) }
    }

    /// Fuzzy name search: the best `limit` additives for `query`, one match each,
    /// ranked exact > alias > partial > fuzzy, then by score, then by label frequency.
    ///
    /// A code (`E102`, `e 160 a`) is an exact match. Whole names within one edit
    /// (queries of 4–5 letters) or two edits (6 or more; a swap of neighbouring
    /// letters is one edit) count as fuzzy matches, so `tartrazien` finds
    /// Tartrazine. Queries shorter than 3 letters match whole names and name
    /// prefixes only, without the trigram index.
    public func search(_ query: String, limit: Int = 5) throws -> [NameMatch] {
        let key = NameKey.normalize(query)
        guard !key.isEmpty, limit > 0 else { return [] }
        return try withConnection {
            var ranked = Ranking()
            if let code = ECode(query), let found = try record(code) {
                ranked.offer(NameMatch(code: found.code, name: found.canonicalName, lang: "en", kind: .exact, score: 1),
                             frequency: found.labelFrequency)
            }
            for (match, frequency) in try exactMatches(key) { ranked.offer(match, frequency: frequency) }
            let scalars = Array(key.unicodeScalars)
            if scalars.count < 3 {
                try byPrefix.forEachRow([.text(key), .int(200)]) { row in
                    ranked.offer(try candidate(row, kind: .partial, score: partialScore(key, in: row.text(0))),
                                 frequency: Int(row.int64(4)))
                }
                return ranked.best(limit)
            }
            try bySubstring.forEachRow([.text(ftsTrigramFilter(scalars)), .int(200), .text(key)]) { row in
                ranked.offer(try candidate(row, kind: .partial, score: partialScore(key, in: row.text(0))),
                             frequency: Int(row.int64(4)))
            }
            // Fuzzy matches rank below every other kind: with `limit` better ones they cannot show.
            let maxEdits = scalars.count <= 3 ? 0 : scalars.count <= 5 ? 1 : 2
            if ranked.count < limit, maxEdits > 0, let pieces = ftsTypoCandidates(scalars, maxEdits: maxEdits) {
                let values: [SQLValue] = [.text(pieces), .int(Int64(scalars.count - maxEdits)),
                                          .int(Int64(scalars.count + maxEdits))]
                try byTrigrams.forEachRow(values) { row in
                    let name = row.text(0).unicodeScalars.map(\.value)
                    let d = EditDistance.bounded(scalars.map(\.value), name, limit: maxEdits)
                    guard d <= maxEdits else { return }
                    let score = 1 - Double(d) / Double(max(scalars.count, name.count))
                    ranked.offer(try candidate(row, kind: .fuzzy, score: score), frequency: Int(row.int64(4)))
                }
            }
            return ranked.best(limit)
        }
    }

    /// Rows whose key is `key`, one per additive, with each additive's label frequency.
    func exactMatches(_ key: String) throws -> [(match: NameMatch, frequency: Int)] {
        var out: [(match: NameMatch, frequency: Int)] = []
        var seen = Set<ECode>()
        let scalars = Array(key.unicodeScalars)
        let (statement, values): (Statement, [SQLValue]) = scalars.count < 3
            ? (byShortKey, [.text(key)]) : (byKey, [.text(ftsTrigramFilter(scalars)), .text(key)])
        try statement.forEachRow(values) { row in
            guard let code = parseCode(row.text(1)), seen.insert(code).inserted else { return }
            let exact = row.int64(3) != 0
            out.append((NameMatch(code: code, name: row.text(0), lang: row.text(2),
                                  kind: exact ? .exact : .alias, score: exact ? 1 : 0.9), Int(row.int64(4))))
        }
        return out
    }

    func parseCode(_ text: String) -> ECode? {
        if let code = parsedCodes[text] { return code }
        let code = ECode(text)
        parsedCodes[text] = code
        return code
    }

    /// Builds a match from a candidate row (key, name, code, lang, label_frequency).
    func candidate(_ row: Statement, kind: NameMatch.Kind, score: Double) throws -> NameMatch {
        guard let code = parseCode(row.text(2)) else {
            throw StoreError.damaged(path: location.additivesPath, detail: "bad code \(row.text(2)) in names")
        }
        return NameMatch(code: code, name: row.text(1), lang: row.text(3), kind: kind, score: score)
    }
}

/// Keeps the best match per additive and orders them for `search`.
private struct Ranking {
    private var best: [ECode: (match: NameMatch, frequency: Int)] = [:]

    mutating func offer(_ match: NameMatch, frequency: Int) {
        let frequency = max(frequency, best[match.code]?.frequency ?? 0)
        if let current = best[match.code]?.match, !Ranking.isBetter(match, than: current) {
            best[match.code]?.frequency = frequency
            return
        }
        best[match.code] = (match, frequency)
    }

    var count: Int { best.count }

    func best(_ limit: Int) -> [NameMatch] {
        best.values.sorted { a, b in
            if a.match.kind != b.match.kind { return a.match.kind < b.match.kind }
            if a.match.score != b.match.score { return a.match.score > b.match.score }
            if a.frequency != b.frequency { return a.frequency > b.frequency }
            return a.match.code < b.match.code
        }.prefix(limit).map(\.match)
    }

    static func isBetter(_ a: NameMatch, than b: NameMatch) -> Bool {
        a.kind != b.kind ? a.kind < b.kind : a.score > b.score
    }
}

/// How well `key` covers a name it is part of: whole words rank above word fragments,
/// and among equals the caller's label-frequency tiebreak decides.
private func partialScore(_ key: String, in name: String) -> Double {
    if key == name { return 1 }
    let padded = " \(name) "
    return padded.contains(" \(key) ") ? 0.7 : name.hasPrefix(key) || name.contains(" \(key)") ? 0.65 : 0.6
}

/// One trigram as an FTS5 string.
private func ftsString(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    let text = String(String.UnicodeScalarView(scalars))
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// An FTS5 query that every name containing `scalars` (3 or more) matches: its first,
/// middle and last trigrams, all required. names_fts keeps no positions (detail = none),
/// so more names match, and the caller checks the substring or the key itself; more
/// trigrams would rule out few more rows and cost a list of rows each.
private func ftsTrigramFilter(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    let start = scalars.startIndex, count = scalars.count
    var offsets = [0]
    for offset in [(count - 3) / 2, count - 3] where !offsets.contains(offset) { offsets.append(offset) }
    return offsets.map { ftsString(scalars[(start + $0)..<(start + $0 + 3)]) }.joined(separator: " AND ")
}

private func ftsTrigramFilter(_ scalars: [Unicode.Scalar]) -> String { ftsTrigramFilter(scalars[...]) }

/// An FTS5 query that every name within `maxEdits` edits of the query matches.
///
/// Long queries are cut into `2 × maxEdits + 1` pieces of 3 or more letters:
/// one edit breaks at most two pieces (two only when it swaps letters across
/// a boundary), so a name within k edits keeps at least one piece whole.
/// Asking for any whole piece (all of its trigrams) therefore finds every such
/// name while matching far fewer rows than single trigrams do. Shorter queries
/// ask for any of their trigrams. Nil when the query is shorter than a trigram.
private func ftsTypoCandidates(_ scalars: [Unicode.Scalar], maxEdits: Int) -> String? {
    guard scalars.count >= 3 else { return nil }
    let pieceCount = 2 * maxEdits + 1
    var terms: [String] = []
    if scalars.count >= 3 * pieceCount {
        let size = scalars.count / pieceCount
        for i in 0..<pieceCount {
            let end = i == pieceCount - 1 ? scalars.count : (i + 1) * size
            terms.append("(" + ftsTrigramFilter(scalars[(i * size)..<end]) + ")")
        }
    } else {
        for i in 0...(scalars.count - 3) {
            terms.append(ftsString(scalars[i..<(i + 3)]))
        }
    }
    return Array(Set(terms)).sorted().joined(separator: " OR ")
}
