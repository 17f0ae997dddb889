import ArgumentParser
import EcodexCore
import Foundation

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, html
}

/// The formats of commands that print records or lists rather than a result page: asking
/// them for HTML is a usage error, never JSON printed instead.
enum DataFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Options of the commands that read photos (`scan IMAGE…`, `scan burst`).
struct ReadingOptions: ParsableArguments {
    @Option(help: "Tesseract languages, e.g. eng+deu+fra (default: the installed label languages).")
    var lang: String?

    @Flag(name: .customLong("show-text"), help: "Also print the text as read, unsure words marked, to correct and pass to `scan text`.")
    var showText = false

    @Option(help: "Photos read at once when several are given, one OCR engine each (default: the number of cores, at most 4).")
    var jobs: Int?

    var languages: [String]? { lang.map { $0.split(separator: "+").map(String.init) } }

    /// `--jobs`, else the cores this process may use; between 1 and 4.
    var workers: Int { min(4, max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)) }
}

/// Options every scanning command shares: who the shopper is and how to print.
struct ShopperOptions: ParsableArguments {
    @Option(help: "Region whose rules apply: EU, US, UK, CA, AU, IN, or auto (saved setting, then locale).",
            completion: .list(["auto"] + Region.allCases.map(\.rawValue)))
    var region: String = "auto"

    @Option(help: "Diets to check, comma-separated: vegan, vegetarian, kosher, halal, none (overrides saved).",
            completion: .list(Diet.allCases.map(\.rawValue) + ["none"]))
    var diet: String?

    @Flag(inversion: .prefixedNo, help: "Treat a diet conflict as red, not yellow (overrides saved).")
    var strictDiet: Bool?

    @Option(help: "Sensitivities to watch, comma-separated: sulphites, pku (aspartame), caffeine, shellfish, none.",
            completion: .list(["sulphites", "pku", "caffeine", "shellfish", "none"]))
    var avoid: String?

    @Flag(inversion: .prefixedNo, help: "Child mode: cautions for children show red (overrides saved).")
    var child: Bool?

    @Option(help: "Compare regions side by side, comma-separated (EU,US,UK,CA,AU,IN or all).")
    var compare: String?

    @Flag(inversion: .prefixedNo,
          help: "Look barcodes not on this computer up in Open Food Facts; only the barcode is sent (overrides saved `online`).")
    var online: Bool?

    @Option(help: "Output format: text, json (one JSON object per line and input) or html (one accessible page).")
    var format: OutputFormat = .text

    @Option(name: .customLong("as-of"), help: "Judge by the rules in force on this day, YYYY-MM-DD (default: today).")
    var asOf: String?

    @Option(help: "Folder for the additive store and history (default: $ECODEX_DATA_DIR or ~/.local/share/ecodex).")
    var dataDir: String?

    @Option(name: [.short, .long], help: "Write the result to FILE, replaced whole when the command ends.", completion: .file())
    var output: String?

    @Flag(name: [.short, .long], help: "Print only the result and errors: no notes, warnings or progress.")
    var quiet = false

    func validate() throws {
        if quiet { Quiet.on = true }
        if let output { try OutputFile.redirect(to: output) }
    }

    /// Saved preferences with this run's flags on top.
    func preferences(_ file: PreferencesFile) throws -> Preferences {
        let env = ProcessInfo.processInfo.environment
        var saved = file
        do {
            if region.lowercased() != "auto" { try saved.set("region", region) }
            if let diet { try saved.set("diet", diet) }
            if let avoid { try saved.set("avoid", avoid) }
        } catch let e as PreferencesError {
            throw ValidationError(Failure.message(of: e))
        }
        if let strictDiet { saved.strictDiet = strictDiet }
        if let child { saved.childMode = child }
        return saved.preferences(environment: env)
    }

    /// This run's scan options (preferences plus regions to compare) and whether it may use the
    /// network (`--online`/`--no-online`, else the saved `online` setting): the file is read once.
    func settings() throws -> (scan: ScanOptions, online: Bool) {
        var regions: [Region] = []
        for item in (compare ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            if item.lowercased() == "all" { regions = Region.allCases; break }
            guard let r = Region(code: item) else {
                throw ValidationError("\"\(item)\" is not a valid region. Use \(Region.allCases.map(\.rawValue).joined(separator: ", ")) or all.")
            }
            if !regions.contains(r) { regions.append(r) }
        }
        let saved = try Wiring.savedPreferences.get()
        var options = ScanOptions(preferences: try preferences(saved), compareRegions: regions)
        if let asOf {
            guard let day = CalendarDay(asOf) else { throw ValidationError("\"\(asOf)\" is not a date. Use YYYY-MM-DD, e.g. 2027-02-01.") }
            options.asOf = day
        }
        return (options, online ?? saved.online)
    }
}
