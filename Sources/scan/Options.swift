import ArgumentParser
import EcodexCore
import Foundation

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Options every scanning command shares: who the shopper is and how to print.
struct ShopperOptions: ParsableArguments {
    @Option(help: "Region whose rules apply: EU, US, UK, CA, AU, IN, or auto (saved setting, then locale).")
    var region: String = "auto"

    @Option(help: "Diets to check, comma-separated: vegan, vegetarian, kosher, halal.")
    var diet: String?

    @Flag(help: "Treat a diet conflict as red, not yellow.")
    var strictDiet = false

    @Option(help: "Sensitivities to watch, comma-separated: sulphites, pku (aspartame), caffeine, shellfish.")
    var avoid: String?

    @Flag(help: "Child mode: cautions for children show red.")
    var child = false

    @Option(help: "Output format: text or json (one JSON object per line and input).")
    var format: OutputFormat = .text

    @Option(help: "Folder for the additive store and history (default: $ECODEX_DATA_DIR or ~/.local/share/ecodex).")
    var dataDir: String?

    func preferences() throws -> Preferences {
        var p = Preferences()
        p.region = try resolveRegion()
        for d in list(diet) {
            guard let v = Diet(rawValue: d.lowercased()) else {
                throw ValidationError("Unknown diet \"\(d)\". Use vegan, vegetarian, kosher or halal.")
            }
            p.diets.insert(v)
        }
        for s in list(avoid) {
            guard let v = Sensitivity(name: s) else {
                throw ValidationError("Unknown sensitivity \"\(s)\". Use sulphites, pku, caffeine or shellfish.")
            }
            p.sensitivities.insert(v)
        }
        p.strictDiet = strictDiet
        p.childMode = child
        return p
    }

    /// Explicit choice, else the locale (LC_ALL, then LANG), else EU. Never location.
    func resolveRegion() throws -> Region {
        if region.lowercased() != "auto" {
            guard let r = Region(code: region) else {
                throw ValidationError("Unknown region \"\(region)\". Use EU, US, UK, CA, AU, IN or auto.")
            }
            return r
        }
        let env = ProcessInfo.processInfo.environment
        for key in ["LC_ALL", "LANG"] {
            if let v = env[key], !v.isEmpty, let r = Region(locale: v) { return r }
        }
        return .eu
    }

    private func list(_ s: String?) -> [String] {
        (s ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
