import ArgumentParser
import EcodexCore
import EcodexOnline
import EcodexStore
import EcodexVision
import Foundation

struct ImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Scan label photos (JPEG, HEIC, PNG, TIFF, WebP, BMP). This is the default: `scan label.jpg`."
    )

    @Argument(help: "One or more label photos; - reads one from standard input.", completion: .file())
    var images: [String]

    @OptionGroup var reading: ReadingOptions

    @OptionGroup var shopper: ShopperOptions

    func run() throws {
        let (options, online) = try shopper.settings()
        let images = try StandardInputPhoto.resolve(self.images)
        // A photo from standard input is named "stdin" in results, not by its temporary copy.
        let names = self.images.map { $0 == "-" ? "stdin" : $0 }
        var out = Output(format: shopper.format, showText: reading.showText)
        let scanner: ScanPipeline
        var history: UserStore?
        do {
            (scanner, history) = try Wiring.imageScanner(reading: reading, shopper: shopper, online: online)
        } catch {
            for name in names { out.failure(error, input: name) }
            throw ExitCode(out.exitCode)
        }
        // Several photos are read in parallel (one engine per core, `--jobs`), printed in input order.
        var printed = 0
        let progress = images.count > 1 ? WorkProgress("scan", total: images.count, noun: "photos", printsAsItGoes: true) : nil
        progress?.start()
        defer { progress?.finish() }
        scanner.scan(images.map { .image(path: $0) }, options: options, ahead: 16 * max(1, reading.workers)) { i, result in
            defer { progress?.step(names[i]) }
            switch result {
            case .success(var report):
                report.input = names[i]
                Wiring.remember(report, history: history)
                out.report(report, separate: printed > 0)
            case .failure(let error):
                out.failure(error, input: names[i])
            }
            printed += 1
        }
        let code = out.finish()
        if code != 0 { throw ExitCode(code) }
    }
}

struct BurstCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burst",
        abstract: "Scan several photos of the same label as one: scan burst f1.jpg f2.jpg f3.jpg.",
        discussion: """
            Small print reads differently in every photo. Take 3 to 5 photos of the ingredient
            list (move a little, change the angle to dodge glare) and pass them all: each is read
            (two at a time on a 2-core machine), and an additive counts when two photos agree on
            it or one photo reads it surely. Prints one result.
            The first photo is always read in full; the others while --time-limit lasts
            (what a photo read by then still counts, and the result says when time ran out).
            """
    )

    @Argument(help: "Two or more photos of the same label (at most \(BurstCommand.maxFrames)).")
    var frames: [String]

    @Option(name: .customLong("time-limit"),
            help: "Seconds to read the photos after the first (0: read every photo in full).")
    var timeLimit: Double = ScanOptions.defaultBurstSeconds

    @OptionGroup var reading: ReadingOptions

    @OptionGroup var shopper: ShopperOptions

    static let maxFrames = 12

    func validate() throws {
        if frames.count > Self.maxFrames {
            throw ValidationError("A burst takes at most \(Self.maxFrames) photos; pick the sharpest ones.")
        }
        if !(timeLimit >= 0 && timeLimit <= 600) {
            throw ValidationError("--time-limit takes seconds from 0 to 600 (0 reads every photo in full).")
        }
    }

    func run() throws {
        var (options, online) = try shopper.settings()
        options.burstSeconds = timeLimit > 0 ? timeLimit : nil
        let input = frames.first ?? "burst"
        var out = Output(format: shopper.format, showText: reading.showText)
        do {
            let (scanner, history) = try Wiring.imageScanner(reading: reading, shopper: shopper, online: online)
            let progress = WorkProgress("scan burst", total: frames.count, noun: "photos")
            progress.start("reading")
            let report = try scanner.scan(.burst(paths: frames), options: options)
            progress.finish(done: frames.count - report.skippedFrames.count)
            Failure.noteSkipped(report.skippedFrames)
            Wiring.remember(report, history: history)
            out.report(report, separate: false)
        } catch {
            out.failure(error, input: input)
        }
        let code = out.finish()
        if code != 0 { throw ExitCode(code) }
    }
}

struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Check typed ingredients: scan text \"Sugar, colours: E102, E129\" (use - to read standard input)."
    )

    @Argument(help: "The ingredient list, or - to read it from standard input.")
    var text: String

    @Flag(name: .customLong("jsonl"),
          help: "Read many texts: the argument is a JSON Lines file (or - for standard input), one {\"text\": \"...\"} a line; one result per line, not saved to history.")
    var jsonLines = false

    @OptionGroup var shopper: ShopperOptions

    func run() throws {
        let options = try shopper.settings().scan
        if jsonLines { return try runLines(options: options) }
        let input = text == "-" ? "stdin" : "text"
        try Output.single(shopper.format, input: input) { out in
            let body = text == "-" ? try Wiring.readStandardInput() : text
            // An empty argument is what an empty standard input is: no text, not a clean label.
            guard body.contains(where: { !$0.isWhitespace }) else { throw Wiring.noText }
            let scanner = try ScanPipeline(catalog: try Wiring.openStore(dataDir: shopper.dataDir))
            let report = try scanner.scan(.text(body, label: input), options: options)
            Wiring.remember(report, history: Wiring.openHistory(dataDir: shopper.dataDir))
            out.report(report, separate: false)
        }
    }
}

extension TextCommand {
    /// `scan text --jsonl FILE|-`: every line's text through one pipeline, each result (or
    /// failure) printed as it is made, like a batch of photos; the exit code is the first
    /// failed line's. Lines are named `FILE:LINE` (`stdin:3`).
    func runLines(options: ScanOptions) throws {
        let name = text == "-" ? "stdin" : text
        var out = Output(format: shopper.format)
        var fd: Int32 = 0
        let scanner: ScanPipeline
        do {
            if text != "-" { fd = try InputFile.open(text, role: .texts).fd }
            scanner = try ScanPipeline(catalog: try Wiring.openStore(dataDir: shopper.dataDir))
        } catch {
            out.failure(error, input: name)
            throw ExitCode(out.finish())
        }
        defer { if fd != 0 { close(fd) } }
        var scanned = 0
        do {
            try TextLines.forEach(fd: fd) { number, line in
                let input = "\(name):\(number)"
                do {
                    let report = try scanner.scan(.text(try line.get(), label: input), options: options)
                    out.report(report, separate: scanned > 0)
                    scanned += 1
                } catch {
                    out.failure(error, input: input)
                }
            }
        } catch {
            out.failure(error, input: name)
        }
        let code = out.finish()
        if code != 0 { throw ExitCode(code) }
    }
}

struct BarcodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "barcode",
        abstract: "Check a product by its barcode: digits typed by hand (scan barcode 4006381333931) or a photo."
    )

    @Argument(help: "The 8, 12 or 13 digits under the bars, or a photo of the barcode.")
    var barcode: String

    @OptionGroup var shopper: ShopperOptions

    func run() throws {
        let (options, online) = try shopper.settings()
        try Output.single(shopper.format, input: barcode) { out in
            let history = Wiring.openHistory(dataDir: shopper.dataDir)
            let store = try Wiring.openStore(dataDir: shopper.dataDir)
            let products = try Wiring.products(dataDir: shopper.dataDir, online: online, history: history)
            let scanner = try ScanPipeline(catalog: store, barcodeReader: ZBarReader(), products: products)
            let report = try scanner.scan(.barcode(barcode), options: options)
            Wiring.remember(report, history: history)
            out.report(report, separate: false)
        }
    }
}

struct CodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code",
        abstract: "Look up one additive by its code: scan code E120."
    )

    @Argument(help: "An additive code such as E120, E 150d or INS 211.")
    var code: String

    @OptionGroup var shopper: ShopperOptions

    func run() throws {
        let options = try shopper.settings().scan
        try Output.single(shopper.format, input: code) { out in
            let store = try Wiring.openStore(dataDir: shopper.dataDir)
            let report = try ScanPipeline(catalog: store).scan(.code(code), options: options)
            // The record's six-region table, in every format.
            let day = options.asOf ?? .today()
            let record = try ECode(code).flatMap { try store.additive(code: $0) }
            out.report(report, separate: false, record: record.map { ($0, day) })
            if shopper.format == .text, let record {
                print("\n" + RecordRenderer.text(record, width: TerminalWidth.columns(), on: day))
            }
        }
    }
}

/// Opens the real components. The only place that knows which concrete types back the seams.
enum Wiring {
    /// The whole-download time limit for packs: `ECODEX_DOWNLOAD_SECONDS` (for slow links,
    /// or tests), else `PackFetcher.downloadSeconds`.
    static var downloadSeconds: TimeInterval {
        ProcessInfo.processInfo.environment["ECODEX_DOWNLOAD_SECONDS"].flatMap(TimeInterval.init)
            .flatMap { $0 > 0 && $0 <= 3600 ? $0 : nil } ?? PackFetcher.downloadSeconds
    }

    /// Recognition time for one photo: `ECODEX_OCR_SECONDS` (slow machines, or tests that
    /// are about something else), else `TesseractLabelReader.defaultBudgetMs`.
    static var ocrBudgetMs: Int {
        guard let text = ProcessInfo.processInfo.environment["ECODEX_OCR_SECONDS"], let seconds = Double(text),
              seconds > 0, seconds <= 3600 else { return TesseractLabelReader.defaultBudgetMs }
        return Int(seconds * 1000)
    }

    /// The preferences file, read once per run: scan options, the network setting and telemetry all use it.
    static let savedPreferences = Result { try PrefsCommand.load() }

    static func location(_ dataDir: String?) -> StoreLocation {
        StoreLocation.resolve(override: dataDir, environment: ProcessInfo.processInfo.environment)
    }

    static func openStore(dataDir: String?) throws -> AdditiveStore {
        try AdditiveStore(location: location(dataDir))
    }

    /// The pipeline for photos: store, Tesseract, ZBar fallback and product sources, plus the history.
    static func imageScanner(reading: ReadingOptions, shopper: ShopperOptions,
                             online: Bool) throws -> (ScanPipeline, UserStore?) {
        let store = try openStore(dataDir: shopper.dataDir)
        let reader = try TesseractLabelReader(languages: reading.languages, budgetMs: ocrBudgetMs)
        reader.parallelism = reading.workers
        // The HTML page shows the photo with the words found outlined.
        reader.keepsPreview = shopper.format == .html
        let history = openHistory(dataDir: shopper.dataDir)
        let products = try Wiring.products(dataDir: shopper.dataDir, online: online, history: history)
        return (try ScanPipeline(catalog: store, reader: reader, barcodeReader: ZBarReader(), products: products), history)
    }

    /// Keeps a result in the local history. A history problem never fails a scan:
    /// the shopper still gets the result, with a note on standard error.
    static func remember(_ report: ScanReport, history: UserStore?) {
        Failure.noteBarcodeOffline(report)
        guard let history else { return }
        do {
            _ = try history.recordScan(report)
        } catch {
            let message = Failure.message(of: error)
            Quiet.note("scan: note: this result was not saved to history: \(message)")
        }
    }

    /// The product sources in order: the product cache, the imported product list, and
    /// Open Food Facts only when this run may use the network. Online finds are cached.
    static func products(dataDir: String?, online: Bool, history: UserStore?) throws -> ProductSourceChain {
        let here = location(dataDir)
        let local: [ProductSource] = [ProductCacheLookup(location: here), ProductDataset(location: here)]
        return ProductSourceChain(
            local: local, online: online ? try OpenFoodFactsClient() : nil, cache: history,
            onLocalError: { error in
                let message = Failure.message(of: error)
                Quiet.note("scan: note: a product list was skipped: \(message)")
            })
    }

    static func openHistory(dataDir: String?) -> UserStore? {
        do { return try UserStore(location: location(dataDir)) } catch {
            let message = Failure.message(of: error)
            Quiet.note("scan: note: history is unavailable: \(message)")
            return nil
        }
    }

    /// Reads standard input up to `ScanPipeline.maxTextBytes`; more is a `parse_error`
    /// without reading the rest (so `scan text - < /dev/zero` ends at once). Invalid UTF-8
    /// is replaced, never fatal.
    static func readStandardInput() throws -> String {
        let limit = ScanPipeline.maxTextBytes
        let data = (try? FileHandle.standardInput.read(upToCount: limit + 1)) ?? Data()
        guard data.count <= limit else {
            throw EcodexError.parse("The text on standard input is too long to be an ingredient list (over \(limit / 1000) kB). Give only the ingredients.")
        }
        guard !data.isEmpty else { throw noText }
        return String(decoding: data, as: UTF8.self)
    }

    static let noText = EcodexError.parse("No ingredient text was given. Type the ingredients, or pass them as an argument.")
}
