import EcodexCore
import Foundation

/// One image's outcome for one system, as `bench.json` stores it.
public struct ImageOutcome: Codable, Sendable, Equatable {
    public var predicted: [String]
    public var ms: Double?
    public var cpuMs: Double?
    public var error: String?
    public init(_ s: ImageScore) {
        predicted = s.predicted.sorted().map(\.description)
        ms = s.milliseconds.map { ($0 * 10).rounded() / 10 }
        cpuMs = s.cpuMilliseconds.map { ($0 * 10).rounded() / 10 }
        error = s.error
    }
}

/// One image with its truth and what each system reported.
public struct ImageRecord: Codable, Sendable, Equatable {
    public var file: String
    public var conditions: [String]
    public var lang: String
    public var tier: String
    public var truth: [String]
    public var namesOnly: [String]
    public var ecodex: ImageOutcome
    public var baseline: ImageOutcome?
    /// The same label read from all its burst frames (`scan burst`), when the truth lists any.
    public var burst: ImageOutcome?
}

/// The quality gates of REQUIREMENTS §15.1, checked on the clean-to-moderate tier.
public struct Gates: Codable, Sendable, Equatable {
    public var minCodeF1 = 0.97
    public var minSynonymRecall = 0.95
    public var maxMeanSeconds = 2.0
    public init() {}
}

/// A whole bench run: what `bench.json` holds and what the table and HTML page show.
public struct BenchReport: Codable, Sendable, Equatable {
    /// Bumped when a field changes meaning.
    public var formatVersion = 1
    /// Free-form description of the selection (`all`, `fast`, `limit 50 seed 2026`, conditions).
    public var selection: String
    public var images: Int
    /// Images listed in the truth file whose file was missing (skipped, not scored).
    public var missing: [String]
    public var ecodex: BenchSummary
    public var baseline: BenchSummary?
    /// Ecodex on every frame of each burst at once (`scan burst`), for items with burst frames.
    public var burst: BenchSummary?
    /// What each system is, in words (engine languages, commands).
    public var systems: [String: String]
    /// Peak resident memory of the bench process (Ecodex runs in-process), MB.
    public var peakMemoryMB: Double?
    /// One-time start-up of the store, ms (not part of time to result; OCR engines start with the first photo that needs them).
    public var startupMs: Double
    public var gates: Gates
    /// Environment facts that affect timings: cores, OMP_THREAD_LIMIT, tesseract version.
    public var environment: [String: String]
    public var results: [ImageRecord]

    public init(selection: String, missing: [String], ecodex: [ImageScore], baseline: [ImageScore]?,
                burst: [ImageScore]? = nil,
                systems: [String: String], peakMemoryMB: Double?, startupMs: Double, environment: [String: String]) {
        self.selection = selection
        self.images = ecodex.count
        self.missing = missing
        self.ecodex = BenchSummary(system: "Ecodex", scores: ecodex)
        self.baseline = baseline.map { BenchSummary(system: "Baseline", scores: $0) }
        self.burst = burst.flatMap { $0.isEmpty ? nil : BenchSummary(system: "Ecodex burst", scores: $0) }
        self.systems = systems
        self.peakMemoryMB = peakMemoryMB.map { ($0 * 10).rounded() / 10 }
        self.startupMs = (startupMs * 10).rounded() / 10
        self.gates = Gates()
        self.environment = environment
        let base = baseline.map { Dictionary($0.map { ($0.item.file, $0) }, uniquingKeysWith: { a, _ in a }) }
        let bursts = burst.map { Dictionary($0.map { ($0.item.file, $0) }, uniquingKeysWith: { a, _ in a }) }
        results = ecodex.map { s in
            ImageRecord(file: s.item.file, conditions: s.item.conditions, lang: s.item.lang, tier: s.item.tier,
                        truth: s.item.truth.sorted().map(\.description), namesOnly: s.item.namesOnly.sorted().map(\.description),
                        ecodex: ImageOutcome(s), baseline: base?[s.item.file].map(ImageOutcome.init),
                        burst: bursts?[s.item.file].map(ImageOutcome.init))
        }
    }

    /// Whether each gate holds on the clean-to-moderate tier.
    public var gateResults: [(name: String, value: String, target: String, pass: Bool)] {
        let m = ecodex.moderate
        let meanS = ecodex.timeMs.mean / 1000
        // A run without clean-to-moderate images (--tier hard) has nothing to gate on accuracy.
        guard m.images > 0 else {
            return [("Mean time to result", fmt(meanS, 2) + " s", "≤ \(fmt(gates.maxMeanSeconds, 1)) s", meanS <= gates.maxMeanSeconds)]
        }
        return [
            ("E-code F1 (clean-to-moderate)", fmt(m.codeF1), "≥ \(fmt(gates.minCodeF1, 2))", m.codeF1 >= gates.minCodeF1),
            ("Synonym recall (clean-to-moderate)", fmt(m.synonymRecall), "≥ \(fmt(gates.minSynonymRecall, 2))",
             m.synonymRecall >= gates.minSynonymRecall),
            ("Mean time to result", fmt(meanS, 2) + " s", "≤ \(fmt(gates.maxMeanSeconds, 1)) s", meanS <= gates.maxMeanSeconds),
        ]
    }

    /// The JSON written to `bench.json`: sorted keys so runs diff cleanly.
    public func json() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try e.encode(self)
    }

    /// Condition names in display order: the vocabulary first, then any others alphabetically.
    public static let conditionOrder = ["clean", "curved", "low_light", "mixed_language", "small_font", "occlusion",
                                        "glare", "perspective", "blur", "rotation", "jpeg", "light_on_color", "phone_frame", "real",
                                        "real_frame"]
    public static let languageOrder = ["en", "de", "fr", "es", "it", "nl", "mixed"]

    static func ordered(_ keys: some Collection<String>, _ order: [String]) -> [String] {
        let known = order.filter { keys.contains($0) }
        return known + keys.filter { !order.contains($0) }.sorted()
    }

    /// The Markdown table `scan bench` prints: headline, gates, then per condition and language.
    public func markdown() -> String {
        var t = "Gold set: \(images) images (\(selection))"
        if !missing.isEmpty { t += ", \(missing.count) missing and skipped" }
        t += "\n\n"
        t += "| system | images | E-code precision | E-code recall | E-code F1 | synonym recall | mean s | median s | p95 s |\n"
        t += "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        func row(_ label: String, _ g: GroupScore, _ time: TimeStats?) -> String {
            if g.images == 0 { return "| \(label) | 0 | – | – | – | – | | | |\n" }
            let times = time.map { "\(fmt($0.mean / 1000, 2)) | \(fmt($0.median / 1000, 2)) | \(fmt($0.p95 / 1000, 2))" } ?? " | | "
            return "| \(label) | \(g.images) | \(fmt(g.codePrecision)) | \(fmt(g.codeRecall)) | \(fmt(g.codeF1)) | \(ratio(g.names, \.recall)) | \(times) |\n"
        }
        t += row("Ecodex, all", ecodex.overall, ecodex.timeMs)
        t += row("Ecodex, clean-to-moderate", ecodex.moderate, nil)
        t += row("Ecodex, hard", ecodex.hard, nil)
        if let b = baseline {
            t += row("Baseline, all", b.overall, b.timeMs)
            t += row("Baseline, clean-to-moderate", b.moderate, nil)
            t += row("Baseline, hard", b.hard, nil)
        }
        if let b = burst {
            t += row("Ecodex burst, all", b.overall, b.timeMs)
        }
        // Every additive, printed as a code or named: what a shopper gets, and what the
        // real development set (few printed codes) is judged on.
        t += "\n| system | images | additives | precision | recall | F1 (every additive, printed or named) |\n"
        t += "|---|---:|---:|---:|---:|---:|\n"
        func allRow(_ label: String, _ g: GroupScore) -> String {
            "| \(label) | \(g.images) | \(g.all.tp + g.all.fn) | \(fmt(g.all.precision)) | \(fmt(g.all.recall)) | \(fmt(g.all.f1)) |\n"
        }
        t += allRow("Ecodex", ecodex.overall)
        if let b = burst { t += allRow("Ecodex burst", b.overall) }
        if let b = baseline { t += allRow("Baseline", b.overall) }
        t += "\n| gate | measured | target | |\n|---|---:|---:|---|\n"
        for g in gateResults { t += "| \(g.name) | \(g.value) | \(g.target) | \(g.pass ? "pass" : "FAIL") |\n" }
        if let cpu = ecodex.cpuMs {
            t += "\nEcodex CPU time per image: mean \(fmt(cpu.mean / 1000, 2)) s, median \(fmt(cpu.median / 1000, 2)) s, "
            t += "p95 \(fmt(cpu.p95 / 1000, 2)) s (wall time above grows when other work shares the cores).\n"
        }
        if let mb = peakMemoryMB { t += "\nPeak memory \(fmt(mb, 0)) MB; start-up (store) \(fmt(startupMs / 1000, 2)) s, not in time to result; each OCR engine starts with the first photo that needs it, inside that photo's time.\n" }
        t += "\n" + breakdown("condition", ecodex.byCondition, baseline?.byCondition, Self.conditionOrder)
        t += "\n" + breakdown("language", ecodex.byLanguage, baseline?.byLanguage, Self.languageOrder)
        return t
    }

    func breakdown(_ what: String, _ e: [String: GroupScore], _ b: [String: GroupScore]?, _ order: [String]) -> String {
        var t = "| \(what) | images | Ecodex F1 | Ecodex recall | synonym recall |"
        t += b == nil ? "\n|---|---:|---:|---:|---:|\n" : " baseline F1 | baseline recall |\n|---|---:|---:|---:|---:|---:|---:|\n"
        for k in Self.ordered(e.keys, order) {
            let g = e[k]!
            t += "| \(k) | \(g.images) | \(ratio(g.codes, \.f1)) | \(ratio(g.codes, \.recall)) | \(ratio(g.names, \.recall)) |"
            if let bg = b?[k] { t += " \(ratio(bg.codes, \.f1)) | \(ratio(bg.codes, \.recall)) |" }
            t += "\n"
        }
        return t
    }
}

/// A ratio of `counts`, or "–" when there was nothing to find (a group with no names has no synonym recall).
func ratio(_ c: Counts, _ value: KeyPath<Counts, Double>) -> String {
    c.tp + c.fn == 0 ? "–" : fmt(c[keyPath: value])
}

/// Fixed-point formatting without the locale: benchmark tables must read the same everywhere.
func fmt(_ v: Double, _ digits: Int = 3) -> String {
    guard v.isFinite else { return "–" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int((abs(v) * scale).rounded())
    let whole = n / Int(scale), frac = n % Int(scale)
    var s = (v < 0 && n != 0 ? "-" : "") + "\(whole)"
    if digits > 0 {
        let f = String(frac)
        s += "." + String(repeating: "0", count: digits - f.count) + f
    }
    return s
}
