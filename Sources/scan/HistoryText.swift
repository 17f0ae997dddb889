import EcodexCore
import EcodexStore
import Foundation

/// `scan history` as a person reads it: an aligned list in local time, and one past result
/// printed again in full, card by card, from the JSON saved with it.
enum HistoryText {
    /// One line a result, newest first, columns aligned; times in `timeZone` (the local one).
    static func list(_ entries: [HistoryEntry], timeZone: TimeZone = .current) -> String {
        let rows = entries.map { e -> [String] in
            let input = e.input.count > 32 ? String(e.input.prefix(31)) + "…" : e.input
            let codes = e.codes.isEmpty ? "no additives" : e.codes.joined(separator: " ")
            return ["#\(e.id)", localTime(e.scannedAt, timeZone), input, e.region, "\(e.flagged) flagged, \(e.neutral) neutral", codes]
        }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// The saved result again, as the scan printed it (cards, notes, versions), under a line
    /// that says which scan and when; the counts line alone when the saved JSON cannot be read.
    static func show(_ e: HistoryEntry, renderer: TextRenderer, timeZone: TimeZone = .current) -> String {
        let head = "Scan #\(e.id), \(localTime(e.scannedAt, timeZone)):"
        guard let report = report(fromJSON: e.json, entry: e) else {
            return head + "\n\(e.input): \(e.flagged) flagged, \(e.neutral) neutral, region \(e.region)\n"
                + "Additives: " + (e.codes.isEmpty ? "none found" : e.codes.joined(separator: ", "))
        }
        return head + "\n" + renderer.render(report)
    }

    /// `2026-11-28 00:36 CET`: minutes are enough to find a scan again.
    static func localTime(_ date: Date, _ timeZone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = "yyyy-MM-dd HH:mm zzz"
        return f.string(from: date)
    }

    /// The report saved as JSON, rebuilt for the text renderer. Tolerant: a field it does not
    /// know is skipped, and warnings may be words or objects with a `message`.
    static func report(fromJSON json: String, entry e: HistoryEntry) -> ScanReport? {
        guard json.utf8.count <= 4 << 20,
              let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        let region = Region(rawValue: object["region"] as? String ?? e.region) ?? .eu
        var report = ScanReport(input: object["input"] as? String ?? e.input, region: region,
                                versions: DataVersions(dataVersion: e.dataVersion, packVersion: e.packVersion))
        report.additives = (object["additives"] as? [[String: Any]] ?? []).compactMap(finding)
        report.unmatched = object["unmatched"] as? [String] ?? []
        report.warnings = (object["warnings"] as? [Any] ?? []).compactMap { saved -> ScanWarning? in
            if let words = saved as? String { return .saved(code: "", message: words) }
            guard let o = saved as? [String: Any], let words = o["message"] as? String else { return nil }
            return .saved(code: o["code"] as? String ?? "", message: words)
        }
        report.status = (object["status"] as? String).flatMap(ReadStatus.init(rawValue:)) ?? .read
        return report
    }

    private static func finding(_ o: [String: Any]) -> Finding? {
        guard let code = (o["code"] as? String).flatMap(ECode.init), let badge = (o["badge"] as? String).flatMap(Badge.init(rawValue:))
        else { return nil }
        func diet(_ key: String) -> DietStatus {
            switch (o["diet"] as? [String: Any])?[key] as? Bool {
            case true?: .yes
            case false?: .no
            case nil: .unknown
            }
        }
        let references = (o["references"] as? [[String: Any]] ?? []).compactMap { r in
            (r["label"] as? String).map { Reference(label: $0, url: r["url"] as? String ?? "") }
        }
        let compared = (o["compare"] as? [String: String] ?? [:]).compactMap { key, value in
            Region(rawValue: key).flatMap { r in Badge(rawValue: value).map { (r, $0) } }
        }
        return Finding(code: code, name: o["name"] as? String ?? code.description, badge: badge,
                       matchedText: o["matchedText"] as? [String] ?? [],
                       matchKind: (o["match"] as? String).flatMap(MatchKind.init(rawValue:)) ?? .code,
                       function: o["function"] as? String, risk: o["risk"] as? String ?? "",
                       audience: o["audience"] as? [String] ?? [],
                       diet: Dietary(vegan: diet("vegan"), vegetarian: diet("vegetarian"), kosher: diet("kosher"), halal: diet("halal")),
                       reasons: o["reasons"] as? [String] ?? [], statement: o["statement"] as? String,
                       references: references, regionBadges: Dictionary(compared, uniquingKeysWith: { a, _ in a }))
    }
}
