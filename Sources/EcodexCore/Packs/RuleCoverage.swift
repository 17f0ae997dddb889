/// How much of what shoppers actually read has a region rule: the additive
/// mentions the real parser finds in a set of ingredient texts, and per region
/// the share of those mentions whose record carries a rule.
///
/// Mentions are weighted by how often they occur, so a code on 80 labels counts
/// 80 times: the share is what a shopper scanning those products would see.
/// A mention is resolved the way a scan resolves it (the code, else its nearest
/// ancestor with a record); a mention with no record counts as "no rule".
public struct RuleCoverage: Sendable {
    /// Per region: rules recorded, mentions covered, and the codes most often missing.
    public struct RegionCoverage: Sendable {
        public var region: Region
        public var rules: Int
        public var covered: Int
        /// Rules recorded as checked against the regulator's own text, and mentions they cover.
        public var checkedRules: Int
        public var checkedCovered: Int
        /// Codes with no rule in this region, most mentioned first: (code, mentions).
        public var missing: [(code: String, mentions: Int)]
        /// All mentions, covered or not.
        public var mentions: Int
        /// Share of mentions with a rule, 0...1 (1 when there are no mentions).
        public var share: Double { mentions == 0 ? 1 : Double(covered) / Double(mentions) }
        /// Share of mentions whose rule is checked, 0...1.
        public var checkedShare: Double { mentions == 0 ? 1 : Double(checkedCovered) / Double(mentions) }
    }

    public let texts: Int
    public let mentions: Int
    public let regions: [RegionCoverage]

    public init(pack: Pack, texts: [String]) {
        let catalog = InMemoryCatalog(pack.additives)
        let parser = IngredientParser(lexicon: catalog.lexicon())
        var resolved: [String: Int] = [:]  // record code (or the unknown code) → mentions
        var records: [String: Additive] = [:]
        var total = 0
        for text in texts {
            for mention in parser.parse(text).mentions {
                total += 1
                let record = catalog.additive(code: mention.code)
                let key = record?.code.description ?? mention.code.description
                resolved[key, default: 0] += 1
                if let record { records[key] = record }
            }
        }
        self.texts = texts.count
        self.mentions = total
        let ranked = resolved.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        regions = Region.allCases.map { region in
            var covered = 0, checkedCovered = 0
            var missing: [(code: String, mentions: Int)] = []
            for (code, n) in ranked {
                if let rule = records[code]?.rule(for: region) {
                    covered += n
                    if Self.isChecked(rule) { checkedCovered += n }
                } else {
                    missing.append((code, n))
                }
            }
            let rules = pack.additives.compactMap { $0.rule(for: region) }
            return RegionCoverage(region: region, rules: rules.count, covered: covered,
                                  checkedRules: rules.filter(Self.isChecked).count, checkedCovered: checkedCovered,
                                  missing: missing, mentions: total)
        }
    }

    static func isChecked(_ rule: RegionRule) -> Bool {
        if case .checked? = rule.reference?.check { return true }
        return false
    }

    /// The `text` field of each line of a JSON Lines file (the Open Food Facts export shape);
    /// lines without one are skipped.
    public static func texts(jsonLines: String) -> [String] {
        jsonLines.split(separator: "\n").compactMap { line in
            guard case .object(let row)? = try? JSONValue.parse(line.utf8), case .string(let text)? = row["text"] else { return nil }
            return text
        }
    }

    /// The table `scan pack validate` prints.
    public func report(showMissing: Int = 8) -> String {
        var lines = ["Rule coverage over \(texts) real ingredient texts (\(mentions) additive mentions):",
                     "  region  rules  mentions with a rule  (checked rules: count, mentions)"]
        for r in regions {
            let pct = String(format: "%5.1f %%", r.share * 100)
            var line = "  \(r.region.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  "
                + String(r.rules).leftPadded(5) + "  \(pct) (\(r.covered)/\(mentions))"
                + String(format: "  (%d, %.1f %%)", r.checkedRules, r.checkedShare * 100)
            if showMissing > 0, !r.missing.isEmpty {
                line += " · no rule: " + r.missing.prefix(showMissing).map { "\($0.code)×\($0.mentions)" }.joined(separator: ", ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
