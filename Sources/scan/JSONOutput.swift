import EcodexCore
import EcodexStore
import Foundation

/// The JSON of the commands that print records, lists and settings rather than a scan
/// result: each an `Encodable` type of the contract (docs/json.md), stamped with `schemaVersion`.
enum JSONOutput {
    /// `scan lookup NAME --format json`: the matches, best first, and the best one's full record.
    struct Lookup: Encodable {
        struct Match: Encodable { let code: String, name: String, kind: String, lang: String }
        let schemaVersion = JSONRenderer.schemaVersion
        let query: String
        let matches: [Match]
        let record: RecordJSON
        init(query: String, matches: [NameMatch], record: Additive) {
            self.query = query
            self.matches = matches.map { Match(code: $0.code.description, name: $0.name, kind: $0.kind.rawValue, lang: $0.lang) }
            self.record = RecordJSON(record)
        }
    }

    /// One saved result's summary, as `scan history --format json` lists it.
    struct HistoryItem: Encodable {
        let id: Int64, scannedAt: String, input: String, region: String, codes: [String]
        let summary: Summary
        let dataVersion: String, packVersion: String
        init(_ e: HistoryEntry) {
            id = e.id; scannedAt = ISO8601DateFormatter().string(from: e.scannedAt); input = e.input; region = e.region
            codes = e.codes; summary = Summary(flagged: e.flagged, neutral: e.neutral, unmatched: e.unmatched)
            dataVersion = e.dataVersion; packVersion = e.packVersion
        }
    }

    /// `scan history --format json`: newest first.
    struct History: Encodable {
        let schemaVersion = JSONRenderer.schemaVersion
        let entries: [HistoryItem]
    }

    /// `scan history show N --format json`: the summary and the result as it was printed then
    /// (a result saved by an older version carries that version's shape).
    static func historyEntry(_ e: HistoryEntry) -> String {
        let head = JSONRenderer.encode(HistoryItem(e))
        let saved = (try? JSONSerialization.jsonObject(with: Data(e.json.utf8))) is [String: Any] ? e.json : "null"
        return String(head.dropLast()) + ",\"result\":\(saved),\"schemaVersion\":\"\(JSONRenderer.schemaVersion)\"}"
    }

    /// `scan store status --format json`.
    struct StoreStatus: Encodable {
        let schemaVersion = JSONRenderer.schemaVersion
        let store: String, history: String
        let dataVersion: String, packVersion: String, builtAt: String
        let additives: Int
        let verified: Bool
    }

    /// `scan prefs --format json`: the saved settings and the file they are saved in.
    struct Prefs: Encodable {
        let schemaVersion = JSONRenderer.schemaVersion
        let file: String
        let region: String?
        let diet: [String], avoid: [String]
        let strictDiet: Bool, child: Bool, online: Bool, telemetry: Bool
        let updateServer: String?
        init(_ p: PreferencesFile, file: URL) {
            self.file = file.path; region = p.region?.rawValue
            diet = p.diets.map(\.rawValue).sorted(); avoid = p.sensitivities.map(\.rawValue).sorted()
            strictDiet = p.strictDiet; child = p.childMode; online = p.online; telemetry = p.telemetry
            updateServer = p.updateServer
        }
        enum Key: String, CodingKey { case schemaVersion, file, region, diet, avoid, strictDiet, child, online, telemetry, updateServer }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(schemaVersion, forKey: .schemaVersion); try c.encode(file, forKey: .file)
            try c.encode(region, forKey: .region); try c.encode(diet, forKey: .diet); try c.encode(avoid, forKey: .avoid)
            try c.encode(strictDiet, forKey: .strictDiet); try c.encode(child, forKey: .child)
            try c.encode(online, forKey: .online); try c.encode(telemetry, forKey: .telemetry)
            try c.encode(updateServer, forKey: .updateServer)
        }
    }

    /// `scan version --format json`; the data and pack versions are null when none is known.
    struct Version: Encodable {
        let schemaVersion = JSONRenderer.schemaVersion
        let program = "scan"
        let version: String
        let dataVersion: String?, packVersion: String?
        let source: String
        enum Key: String, CodingKey { case schemaVersion, program, version, dataVersion, packVersion, source }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(schemaVersion, forKey: .schemaVersion); try c.encode(program, forKey: .program)
            try c.encode(version, forKey: .version); try c.encode(dataVersion, forKey: .dataVersion)
            try c.encode(packVersion, forKey: .packVersion); try c.encode(source, forKey: .source)
        }
    }
}
