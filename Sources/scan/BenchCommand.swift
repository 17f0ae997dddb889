import ArgumentParser
import EcodexBench
import EcodexCore
import EcodexStore
import EcodexVision
import Foundation

enum BenchSubset: String, ExpressibleByArgument, CaseIterable {
    case all, fast
}

/// `scan bench goldset/`: accuracy and speed on the gold set, against a plain baseline.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure accuracy and speed on the gold set: scan bench goldset/",
        discussion: """
            Runs the real pipeline in this process, one OCR engine per core (--jobs), and the
            baseline (the bare tesseract CLI per image plus the plain E-number pattern) on the
            same images, as many at a time. Per-image CPU time is measured with --jobs 1 only. Prints a Markdown table; writes bench.json and bench.html to --out.
            Missing synthetic images are rendered first with goldset/generate.py (needs
            python3 and ImageMagick) unless --no-render is given.
            """
    )

    @Argument(help: "The gold-set folder (holds truth.jsonl).")
    var goldset: String = "goldset"

    @Option(help: "Use at most N images, drawn with --seed.")
    var limit: Int?

    @Option(help: "Only images with one of these conditions, comma-separated (clean, curved, low_light, ...).")
    var conditions: String?

    @Option(help: "Only images in these label languages, comma-separated (en, de, fr, es, it, nl, mixed).")
    var langs: String?

    @Option(help: "Only one tier: moderate (clean-to-moderate, where the gates apply) or hard.")
    var tier: String?

    @Option(help: "all, or fast: two clean-to-moderate images per condition plus two real photos.")
    var subset: BenchSubset = .all

    @Flag(name: .customLong("no-baseline"), help: "Skip the tesseract-CLI baseline.")
    var noBaseline = false

    @Flag(name: .customLong("no-burst"), help: "Skip reading the burst frames of images that have them.")
    var noBurst = false

    @Flag(name: .customLong("no-render"), help: "Do not render missing images; skip them.")
    var noRender = false

    @Option(help: "Folder for bench.json and bench.html (default: GOLDSET/results).")
    var out: String?

    @Option(help: "Seed for drawing --limit and --subset samples; the same seed picks the same images.")
    var seed: UInt64 = 2026

    @Option(name: .customLong("ocr-lang"), help: "Tesseract languages for Ecodex, e.g. eng+deu (default: the installed label languages).")
    var ocrLang: String?

    @Option(help: "Folder for the additive store (default: $ECODEX_DATA_DIR, else a fresh store built from the shipped pack).")
    var dataDir: String?

    @Option(help: "Score the predictions stored in an earlier bench.json against the current truth (no OCR).")
    var rescore: String?

    @Flag(name: .customLong("no-real-dev"), help: "Skip the real development set (GOLDSET/real-dev, when its frames are extracted).")
    var noRealDev = false

    @Option(help: "Images read at once, one OCR engine each (default: the cores, at most 4). 1 measures per-image CPU time.")
    var jobs: Int?

    /// `--jobs`, else the cores this process may use; between 1 and 4.
    private var workers: Int { min(4, max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)) }

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if let tier, !["moderate", "hard"].contains(tier) { throw ValidationError("--tier is moderate or hard.") }
    }

    func run() throws {
        let all: [GoldItem]
        do {
            all = try GoldSet.load(folder: goldset)
        } catch {
            var o = Output(format: .text)
            o.failure(error, input: goldset)
            throw ExitCode(o.exitCode)
        }
        let selection = GoldSet.Selection(conditions: list(conditions), langs: list(langs), tier: tier, fast: subset == .fast,
                                          limit: limit, seed: seed)
        var items = GoldSet.select(all, selection)
        if let rescore {
            try rescoreRun(rescore, items: items)
            return
        }
        var missing = items.filter { !exists($0) }
        if !missing.isEmpty && !noRender { renderMissing(missing.count) }
        missing = items.filter { !exists($0) }
        items.removeAll { !exists($0) }
        if !missing.isEmpty {
            warn("\(missing.count) images are missing and skipped (render them: python3 \(goldset)/generate.py render)")
        }
        guard !items.isEmpty else { throw ValidationError("No gold-set images match this selection.") }

        var env = ProcessInfo.processInfo.environment
        // Measure the data that ships, not whatever store this user has installed: without
        // --data-dir or ECODEX_DATA_DIR the run builds a fresh store in a scratch folder.
        let scratchStore = dataDir == nil && (env["ECODEX_DATA_DIR"] ?? "").isEmpty
            ? FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-bench-\(getpid())").path : nil
        let startup = ContinuousClock().now
        let scanner: ScanPipeline
        do {
            let store = try Wiring.openStore(dataDir: dataDir ?? scratchStore)
            let reader = try TesseractLabelReader(languages: ocrLang.map { $0.split(separator: "+").map(String.init) },
                                                  budgetMs: Wiring.ocrBudgetMs)
            reader.parallelism = workers
            scanner = try ScanPipeline(catalog: store, reader: reader)
        } catch {
            var o = Output(format: .text)
            o.failure(error, input: goldset)
            throw ExitCode(o.exitCode)
        }
        let startupMs = ms(ContinuousClock().now - startup)
        defer { if let scratchStore { try? FileManager.default.removeItem(atPath: scratchStore) } }

        let progress = WorkProgress("scan bench", total: items.count, noun: "images")
        progress.start()
        var ecodex: [ImageScore] = []
        if workers == 1 {
            for item in items {
                progress.step(item.file)
                ecodex.append(measured(item) { try scanner.scan(.image(path: path(item)), options: ScanOptions()) })
            }
        } else {
            // One engine per worker, as `scan a.jpg b.jpg …` reads them; an image's time is its
            // own stages' (read on one core), with no CPU time (the process's is shared).
            scanner.scan(items.map { .image(path: path($0)) }, options: ScanOptions(), ahead: 8 * workers) { i, result in
                let item = items[i]
                progress.step(item.file)
                ecodex.append(score(item, result, milliseconds: (try? result.get())?.timingsMs.total ?? 0, cpuMilliseconds: nil))
            }
        }
        progress.finish()
        // Bursts: every frame of the same label at once, as `scan burst` reads them.
        var bursts: [ImageScore] = []
        let burstItems = noBurst ? [] : items.filter { !$0.burst.isEmpty }
        if !burstItems.isEmpty {
            let burstProgress = WorkProgress("scan bench", total: burstItems.count, noun: "bursts")
            for item in burstItems {
                burstProgress.step(item.file + " (burst)")
                let frames = item.burstFrames.map(path).filter { FileManager.default.fileExists(atPath: $0) }
                bursts.append(measured(item) { try scanner.scan(.burst(paths: frames), options: ScanOptions()) })
            }
            burstProgress.finish()
        }
        let peak = Self.peakMemoryMB()

        var baseline: [ImageScore]?
        let tesseract = noBaseline ? nil : Baseline.version()
        if !noBaseline && tesseract == nil { warn("the tesseract CLI is not installed: no baseline") }
        if tesseract != nil {
            env["OMP_THREAD_LIMIT"] = "1"
            // The CLI on as many images at a time as Ecodex had engines.
            let paths = items.map(path), cliItems = items, cliEnv = env
            let baselineProgress = WorkProgress("scan bench (tesseract CLI)", total: items.count, noun: "images")
            baseline = ParallelWork.map(count: items.count, workers: workers) { _, i in
                defer { baselineProgress.step(paths[i]) }
                let (text, elapsed, error) = Baseline.read(paths[i], environment: cliEnv)
                return ImageScore(item: cliItems[i], predicted: BaselineCodes.codes(in: text), milliseconds: elapsed, error: error)
            }
            baselineProgress.finish()
        }

        var describe = "all"
        if subset == .fast { describe = "fast subset" }
        if let limit { describe += ", limit \(limit)" }
        if let conditions { describe += ", conditions \(conditions)" }
        if let langs { describe += ", languages \(langs)" }
        if let tier { describe += ", \(tier == "hard" ? "hard" : "clean-to-moderate") tier" }
        if limit != nil || subset == .fast { describe += ", seed \(seed)" }
        let v = scanner.catalog.versions
        var systems = ["Ecodex": "scan pipeline in process, \(workers) Tesseract engine(s) (\(ocrLang ?? "installed label languages")), "
                       + "additive data \(v.dataVersion), pack \(v.packVersion)"]
        if let tesseract {
            systems["Baseline"] = "OMP_THREAD_LIMIT=1 tesseract IMG - -l eng (\(tesseract)) per image, then \\bE\\s*0*\\d{3}[A-Z]?\\b on upper-cased text"
        }
        let report = BenchReport(
            selection: describe, missing: missing.map(\.file), ecodex: ecodex, baseline: baseline,
            burst: bursts.isEmpty ? nil : bursts, systems: systems,
            peakMemoryMB: peak, startupMs: startupMs,
            environment: ["cores": "\(ProcessInfo.processInfo.activeProcessorCount)", "jobs": "\(workers)",
                          "OMP_THREAD_LIMIT": ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] ?? "unset"])

        try write(report)
        try realDevelopmentSet()
    }

    /// After a whole gold-set run, the real development set (`GOLDSET/real-dev`, real phone
    /// frames whose frames are extracted on this machine; never committed) as its own table:
    /// single frame and burst, beside the baseline. Skipped for partial runs and `--no-real-dev`.
    private func realDevelopmentSet() throws {
        let folder = URL(fileURLWithPath: goldset).appendingPathComponent("real-dev").path
        guard !noRealDev, limit == nil, conditions == nil, langs == nil, tier == nil, subset == .all,
              FileManager.default.fileExists(atPath: folder + "/truth.jsonl") else { return }
        guard FileManager.default.fileExists(atPath: folder + "/frames") else {
            print("\nReal development set: frames not extracted on this machine (see \(folder)/README.md); skipped.")
            return
        }
        print("\n## Real development set (\(folder))\n")
        var real = self
        real.goldset = folder
        real.out = URL(fileURLWithPath: out ?? URL(fileURLWithPath: goldset).appendingPathComponent("results").path)
            .appendingPathComponent("real-dev").path
        real.noRender = true
        real.noRealDev = true
        try real.run()
    }

    /// Runs one scan of `item` and scores it, with its wall and CPU time; a failed scan is a
    /// result too (nothing found, with its error class and message).
    private func measured(_ item: GoldItem, _ scan: () throws -> ScanReport) -> ImageScore {
        let t0 = ContinuousClock().now, c0 = Self.cpuMs()
        let result = Result { try scan() }
        return score(item, result, milliseconds: ms(ContinuousClock().now - t0), cpuMilliseconds: Self.cpuMs() - c0)
    }

    /// One image's score: a failed scan is a result too (nothing found, with its error class and message).
    private func score(_ item: GoldItem, _ result: Result<ScanReport, Error>, milliseconds: Double,
                       cpuMilliseconds: Double?) -> ImageScore {
        switch result {
        case .success(let report):
            // Unmatched codes count as reported: the shopper sees them too.
            let codes = Set(report.additives.map(\.code)).union(report.unmatched.compactMap(ECode.init))
            return ImageScore(item: item, predicted: codes, milliseconds: milliseconds, cpuMilliseconds: cpuMilliseconds)
        case .failure(let error):
            let e = (error as? any ClassifiedError).map { "\($0.errorClass.rawValue): \(Failure.worded($0).message)" } ?? "\(error)"
            return ImageScore(item: item, predicted: [], milliseconds: milliseconds, cpuMilliseconds: cpuMilliseconds, error: e)
        }
    }

    /// Re-scores an earlier run's predictions and times with today's truth: for truth fixes.
    private func rescoreRun(_ file: String, items: [GoldItem]) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ValidationError("There is no bench result at \(file).")
        }
        let old = try JSONDecoder().decode(BenchReport.self, from: data)
        let byFile = Dictionary(old.results.map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
        func scores(_ outcome: (ImageRecord) -> ImageOutcome?) -> [ImageScore] {
            items.compactMap { item in
                guard let r = byFile[item.file], let o = outcome(r) else { return nil }
                return ImageScore(item: item, predicted: Set(o.predicted.compactMap(ECode.init)), milliseconds: o.ms,
                                  cpuMilliseconds: o.cpuMs, error: o.error)
            }
        }
        let ecodex = scores { $0.ecodex }
        let baseline = old.baseline == nil ? nil : scores { $0.baseline }
        let report = BenchReport(selection: old.selection + ", rescored", missing: old.missing, ecodex: ecodex,
                                 baseline: baseline, systems: old.systems, peakMemoryMB: old.peakMemoryMB,
                                 startupMs: old.startupMs, environment: old.environment)
        try write(report)
    }

    private func write(_ report: BenchReport) throws {
        let outDir = URL(fileURLWithPath: out ?? URL(fileURLWithPath: goldset).appendingPathComponent("results").path)
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        try report.json().write(to: outDir.appendingPathComponent("bench.json"))
        let html = BenchHTML.render(report) { file in FileManager.default.contents(atPath: path(file)) }
        try Data(html.utf8).write(to: outDir.appendingPathComponent("bench.html"))
        print(report.markdown())
        print("Wrote \(outDir.appendingPathComponent("bench.json").path) and bench.html")
    }

    private func list(_ s: String?) -> Set<String> {
        Set((s ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    private func path(_ item: GoldItem) -> String { path(item.file) }
    private func path(_ file: String) -> String { URL(fileURLWithPath: goldset).appendingPathComponent(file).path }
    private func exists(_ item: GoldItem) -> Bool { FileManager.default.fileExists(atPath: path(item)) }

    /// Renders missing synthetic images with the committed generator (deterministic, 2 jobs).
    private func renderMissing(_ count: Int) {
        let script = URL(fileURLWithPath: goldset).appendingPathComponent("generate.py").path
        guard FileManager.default.fileExists(atPath: script) else { return }
        warn("rendering \(count) missing images with \(script) (a few minutes)…")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script, "render", "--jobs", "2"]
        p.standardOutput = FileHandle.standardError
        do {
            try p.run()
            p.waitUntilExit()
        } catch {
            warn("could not run the generator: \(error)")
        }
    }

    private func warn(_ s: String) {
        FileHandle.standardError.write(Data("scan bench: \(s)\n".utf8))
    }

    private func ms(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }

    /// CPU time this process has used so far (user + system), ms.
    static func cpuMs() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
    }

    /// Peak resident set size of this process (VmHWM), MB; nil where /proc is absent.
    static func peakMemoryMB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ").compactMap { Double($0) }.first
            return kb.map { $0 / 1024 }
        }
        return nil
    }
}

/// The peer-app baseline: the bare tesseract CLI, one process per image.
enum Baseline {
    /// `tesseract --version`'s first line, or nil when the CLI is missing.
    static func version() -> String? {
        guard let (out, err, status) = run(["tesseract", "--version"], environment: ProcessInfo.processInfo.environment),
              status == 0 else { return nil }
        // Tesseract 5 prints its version on stdout, older ones on stderr.
        return (out + err).split(separator: "\n").first.map(String.init)
    }

    /// OCR text of one image and the wall time of the whole process, ms.
    static func read(_ image: String, environment: [String: String]) -> (String, Double, String?) {
        let clock = ContinuousClock()
        let t0 = clock.now
        let result = run(["tesseract", image, "-", "-l", "eng"], environment: environment)
        let d = (clock.now - t0).components
        let elapsed = Double(d.seconds) * 1000 + Double(d.attoseconds) / 1e15
        guard let (out, _, status) = result else { return ("", elapsed, "tesseract could not start") }
        return (out, elapsed, status == 0 ? nil : "tesseract exited with \(status)")
    }

    private static func run(_ args: [String], environment: [String: String]) -> (String, String, Int32)? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { return nil }
        // Drain both pipes before waiting so a chatty child cannot block on a full pipe.
        let errHandle = err.fileHandleForReading
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = errHandle.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self), p.terminationStatus)
    }
}
