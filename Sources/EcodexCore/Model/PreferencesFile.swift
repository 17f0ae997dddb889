import Foundation

/// The shopper's saved preferences: a plain `key = value` file a person can read and edit.
///
/// ```
/// region = US
/// diet = vegan, halal
/// strict_diet = no
/// avoid = sulphites, pku
/// child = yes
/// online = no
/// ```
/// Unknown keys are reported and skipped; a bad value stops a scan, naming the file and line.
public struct PreferencesFile: Sendable, Equatable {
    /// nil when the shopper has not chosen: the locale decides.
    public var region: Region?
    public var diets: Set<Diet> = []
    public var strictDiet = false
    public var sensitivities: Set<Sensitivity> = []
    public var childMode = false
    /// May barcode lookups ask Open Food Facts (only the barcode is sent)? Default: no.
    public var online = false
    /// The update server `scan update` asks when given no address (`https://…`); nil: none.
    public var updateServer: String?
    /// May anonymous usage events be sent (requirements §12)? Default: no.
    public var telemetry = false

    public init() {}

    public static let keys = ["region", "diet", "strict_diet", "avoid", "child", "online", "update_server", "telemetry"]

    /// `$XDG_CONFIG_HOME/ecodex/preferences.conf`, else `~/.config/ecodex/preferences.conf`.
    public static func defaultURL(environment env: [String: String]) -> URL {
        if let override = env["ECODEX_CONFIG"], !override.isEmpty { return URL(fileURLWithPath: override) }
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.config"
        return URL(fileURLWithPath: base).appendingPathComponent("ecodex/preferences.conf")
    }

    /// Largest preferences file read (a real one is a few lines).
    static let maximumBytes = 64 << 10

    /// Reads the file; a missing file gives the defaults. An unknown key is skipped (a newer
    /// version may have written it); a line that cannot be used is thrown, naming the file.
    ///
    /// - Throws: `parse_error` for a bad line, a file over 64 kB, or one that is not a
    ///   regular file (a pipe here would otherwise hang every scan).
    public static func load(from url: URL) throws -> PreferencesFile {
        let reading = try read(from: url)
        if let stop = reading.stop { throw stop }
        return reading.file
    }

    /// Reads the file keeping every line it can use, and says why each other line was not
    /// used: what `prefs` commands need to show and repair a damaged file.
    ///
    /// - Throws: only for the file as a whole (too large, not a regular file, unreadable).
    public static func read(from url: URL) throws -> Reading {
        guard FileManager.default.fileExists(atPath: url.path) else { return Reading(file: PreferencesFile(), problems: []) }
        let data = try InputFile.read(url.path, role: .preferences, limit: maximumBytes)
        return read(String(decoding: data, as: UTF8.self), path: url.path)
    }

    /// The settings of `text` that can be used, and each line that cannot (`path` names the file in them).
    public static func read(_ text: String, path: String) -> Reading {
        var reading = Reading(file: PreferencesFile(), problems: [])
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            do {
                guard parts.count == 2 else { throw PreferencesError.notKeyValue(line: n + 1) }
                try reading.file.set(parts[0], parts[1])
            } catch {
                let text = String(raw.prefix(200)).trimmingCharacters(in: .whitespaces)
                let reason = error as? PreferencesError ?? .notKeyValue(line: n + 1)
                reading.problems.append(.atLine(path: path, line: n + 1, text: text, reason))
            }
        }
        return reading
    }

    /// What reading a preferences file gave: the usable settings and every line left out.
    public struct Reading: Sendable {
        public var file: PreferencesFile
        /// One `.atLine` per line not used, in file order.
        public var problems: [PreferencesError]

        /// The first line a scan must not run past: a value it cannot use would change the answer.
        public var stop: PreferencesError? { problems.first { !$0.isUnknownKey } }
        /// Lines with a key this version does not know: reported, then ignored.
        public var unknownKeys: [PreferencesError] { problems.filter(\.isUnknownKey) }
    }

    /// Reads `text` as a whole file: unknown keys are skipped, any other bad line is thrown.
    public static func parse(_ text: String) throws -> PreferencesFile {
        let reading = read(text, path: "")
        if let stop = reading.stop { throw stop }
        return reading.file
    }

    /// Sets one key from text, as `scan prefs set KEY VALUE` does.
    public mutating func set(_ key: String, _ value: String) throws {
        let items = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        switch key.lowercased().replacingOccurrences(of: "-", with: "_") {
        case "region":
            if value.lowercased() == "auto" || value.isEmpty { region = nil; return }
            guard let r = Region(code: value) else {
                throw Self.bad("region", value, Region.allCases.map(\.rawValue).joined(separator: ", ") + " or auto")
            }
            region = r
        case "diet":
            diets = try Set(items.filter { $0.lowercased() != "none" }.map {
                guard let d = Diet(rawValue: $0.lowercased()) else { throw Self.bad("diet", $0, "vegan, vegetarian, kosher, halal or none") }
                return d
            })
        case "avoid":
            sensitivities = try Set(items.filter { $0.lowercased() != "none" }.map {
                guard let s = Sensitivity(name: $0) else { throw Self.bad("avoid", $0, "sulphites, pku, caffeine, shellfish or none") }
                return s
            })
        case "strict_diet": strictDiet = try Self.bool("strict_diet", value)
        case "child": childMode = try Self.bool("child", value)
        case "online": online = try Self.bool("online", value)
        case "telemetry": telemetry = try Self.bool("telemetry", value)
        case "update_server":
            let v = value.trimmingCharacters(in: .whitespaces)
            if v.isEmpty || v.lowercased() == "none" { updateServer = nil; return }
            guard URLPolicy.isAllowed(v) else {
                throw Self.bad("update_server", value, "an https:// address or none")
            }
            updateServer = v
        default:
            throw PreferencesError.unknownKey(key, known: Self.keys)
        }
    }

    public func serialized() -> String {
        func yn(_ b: Bool) -> String { b ? "yes" : "no" }
        return """
            # Ecodex preferences. Edit here or with `scan prefs set KEY VALUE`.
            region = \(region?.rawValue ?? "auto")
            diet = \(diets.isEmpty ? "none" : diets.map(\.rawValue).sorted().joined(separator: ", "))
            strict_diet = \(yn(strictDiet))
            avoid = \(sensitivities.isEmpty ? "none" : sensitivities.map(\.rawValue).sorted().joined(separator: ", "))
            child = \(yn(childMode))
            online = \(yn(online))
            update_server = \(updateServer ?? "none")
            telemetry = \(yn(telemetry))

            """
    }

    /// Writes atomically (temp file + rename), creating the folder; private (`PrivateFile`):
    /// diets and sensitivities are the shopper's own.
    public func save(to url: URL) throws {
        try PrivateFile.makeFolder(url.deletingLastPathComponent())
        try PrivateFile.writeAtomically(Data(serialized().utf8), to: url)
    }

    private static func bool(_ key: String, _ v: String) throws -> Bool {
        switch v.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw bad(key, v, "yes or no")
        }
    }

    private static func bad(_ key: String, _ value: String, _ allowed: String) -> PreferencesError {
        .badValue(key: key, value: value, allowed: allowed)
    }
}

/// A preferences file or setting that cannot be used. Every case is a `parse_error`.
public indirect enum PreferencesError: ClassifiedError, Equatable {
    /// Line `line` (1-based) of the file is not `key = value`.
    case notKeyValue(line: Int)
    /// A key that is not one of `known`.
    case unknownKey(String, known: [String])
    /// `value` is not one of the `allowed` values of `key` (`allowed` lists them, as in "yes or no").
    case badValue(key: String, value: String, allowed: String)
    /// Line `line` of the file at `path` (its `text`, cut to 200 characters) could not be used.
    case atLine(path: String, line: Int, text: String, PreferencesError)

    public var errorClass: ErrorClass { .parse }

    /// True for a key this version does not know, wherever it was found.
    public var isUnknownKey: Bool {
        switch self {
        case .unknownKey: true
        case .atLine(_, _, _, let inner): inner.isUnknownKey
        default: false
        }
    }

    public var description: String {
        switch self {
        case .notKeyValue(let line): "line \(line) is not key = value"
        case .unknownKey(let key, _): "unknown key \"\(key)\""
        case .badValue(let key, let value, _): "bad \(key) value \"\(value)\""
        case .atLine(let path, let line, _, let inner): "\(path):\(line): \(inner.description)"
        }
    }
}
