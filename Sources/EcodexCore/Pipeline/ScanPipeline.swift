#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options for one scan. Each field's comment states its default.
public struct ScanOptions: Sendable {
    /// Whose rules and preferences to apply. Default: EU, no diets, no sensitivities.
    public var preferences: Preferences = Preferences()
    /// Regions to compare side by side (`--compare EU,US`). Default: none.
    public var compareRegions: [Region] = []
    /// Wall time a burst spends reading the frames after its first (`scan burst --time-limit`);
    /// nil reads every frame in full. The first frame is always read in full.
    public var burstSeconds: Double? = ScanOptions.defaultBurstSeconds
    /// 2.5 s: a shopper holding a phone waits at most about 3 s for a 5-frame burst; the
    /// measurement behind it is in docs/history.md.
    public static let defaultBurstSeconds = 2.5
    /// The day whose rules apply (`--as-of`); nil: today.
    public var asOf: CalendarDay?
    public init(preferences: Preferences = Preferences(), compareRegions: [Region] = []) {
        self.preferences = preferences
        self.compareRegions = compareRegions
    }
}

/// The pipeline orchestrator: the only place that knows the order of the stages.
///
/// image → `LabelReader` (imaging + OCR) → `IngredientParser` → `AdditiveCatalog`
/// → `RiskEngine` → `ScanReport`. Typed text enters at the parser; a single code
/// at the catalog. Stages never call each other.
public final class ScanPipeline {
    public let catalog: AdditiveCatalog
    private let reader: LabelReader?
    private let barcodeReader: BarcodeReader?
    private let products: ProductSource?
    /// Loaded (or built) on first use: `scan code` never needs it.
    private var builtParser: IngredientParser?

    /// `reader` may be nil for text-only use (`scan text`, `scan code`); without a
    /// `barcodeReader` there is no barcode fallback; `products` answers barcode lookups.
    public init(catalog: AdditiveCatalog, reader: LabelReader? = nil, barcodeReader: BarcodeReader? = nil,
                products: ProductSource? = nil) throws {
        self.catalog = catalog
        self.reader = reader
        self.barcodeReader = barcodeReader
        self.products = products
    }

    private func parser() throws -> IngredientParser {
        if let builtParser { return builtParser }
        let p = try catalog.parser()
        builtParser = p
        return p
    }

    /// Scans one input: the one entry to the pipeline. Each kind goes through the stages it
    /// needs (a photo through reading, a code straight to the catalog).
    public func scan(_ input: ScanInput, options: ScanOptions) throws -> ScanReport {
        switch input {
        case .image(let path): try scanImage(at: path, options: options)
        case .burst(let paths): try scanBurst(at: paths, options: options)
        case .text(let text, let label): try scanText(text, input: label, options: options)
        case .code(let code): try scanCode(code, options: options)
        case .barcodeDigits(let digits): try scanBarcode(digits, options: options)
        case .barcodePhoto(let path): try scanBarcodePhoto(at: path, options: options)
        }
    }

    /// Scans many inputs, each on its own (`scan a.jpg b.jpg …`, a bench run), handing `each` the
    /// results in input order. When every input is a photo, the reader reads them on as many
    /// cores as it has engines for, at most `ahead` past the last one handed on; each reading is
    /// parsed and assessed here, one after the other, so a result is handed on as soon as it and
    /// the inputs before it are done. An input that fails gives its error in its place.
    public func scan(_ inputs: [ScanInput], options: ScanOptions, ahead: Int = 4,
                     each: (Int, Result<ScanReport, Error>) -> Void) {
        let paths = inputs.compactMap { if case .image(let path) = $0 { path } else { nil } }
        guard paths.count == inputs.count else {
            for (i, input) in inputs.enumerated() { each(i, Result { try scan(input, options: options) }) }
            return
        }
        scanImages(at: paths, options: options, ahead: ahead, each: each)
    }

    /// Scans one label photo.
    private func scanImage(at path: String, options: ScanOptions) throws -> ScanReport {
        guard let reader else { throw ScanError.ocrUnavailable }
        let start = Clock.now()
        let photo = try reader.prepare(imageAt: path)
        return try report(reading: try reader.recognize(photo), path: path, options: options, start: start)
    }

    /// Photos read in parallel (`scan(_:options:ahead:each:)`).
    private func scanImages(at paths: [String], options: ScanOptions, ahead: Int,
                            each: (Int, Result<ScanReport, Error>) -> Void) {
        guard let reader else {
            for i in paths.indices { each(i, .failure(ScanError.ocrUnavailable)) }
            return
        }
        reader.read(imagesAt: paths, ahead: ahead) { i, reading in
            let start = Clock.now()
            each(i, Result {
                var report = try self.report(reading: try reading.get(), path: paths[i], options: options, start: start)
                // Read in parallel: the photo's own stage times, not the wall time of the batch.
                report.timingsMs.total += report.timingsMs.preprocess + report.timingsMs.ocr
                return report
            })
        }
    }

    /// The report of one photo's reading: parse, assess, warnings, barcode fallback.
    private func report(reading ocr: OCRResult, path: String, options: ScanOptions, start: Double) throws -> ScanReport {
        var report = try assess(text: ocr.text, words: ocr.words, input: path, options: options, notingNothingFound: false)
        report.preprocessing = ocr.steps
        report.timingsMs.preprocess = ocr.preprocessMs
        report.timingsMs.ocr = ocr.ocrMs
        let evidence = RescanAdvice.Evidence(ocr, found: report.additives.count)
        let low = RescanAdvice.likelyIncomplete(evidence)
        report.ocr = OCRSummary(ocr, lowConfidence: low)
        if let preview = ocr.preview {
            report.photo = PhotoView.make(preview: preview, words: ocr.words, findings: report.additives)
        }
        if let prompt = RescanAdvice.prompt(evidence) {
            report.warnings.insert(prompt, at: 0)
        }
        if ocr.timedOut {
            report.warnings.insert(.readingStopped, at: 0)
        }
        var usedProduct = false
        if low || report.additives.isEmpty {
            usedProduct = try barcodeFallback(&report, imageAt: path, options: options)
        }
        // Said after the fallback: a barcode found in the photo answers instead.
        if report.additives.isEmpty && !report.fallbackUsed { report.warnings.append(.nothingFound) }
        report.status = usedProduct ? .read : Self.status(unsure: low, cutShort: ocr.timedOut, found: !report.additives.isEmpty)
        report.timingsMs.total = Clock.since(start)
        return report
    }

    /// How much of a photo's list was read: a reading likely incomplete (`RescanAdvice`) that
    /// found nothing is unreadable; one that found something, or was cut short, partly read.
    static func status(unsure: Bool, cutShort: Bool, found: Bool) -> ReadStatus {
        if unsure && !found { return .unreadable }
        return unsure || cutShort ? .partlyRead : .read
    }

    /// Scans several photos of one label (a burst, `scan burst a.jpg b.jpg …`) into one result.
    ///
    /// Each frame is read and parsed on its own; evidence is then fused per additive
    /// (`BurstFusion`): an additive seen in two frames counts, one seen in a single frame
    /// counts when that reading is sure or that frame is the lead: the one that read most
    /// ingredient-list words surely (`LabelLanguages.listWordCount`). Frames that cannot be read are skipped with
    /// a warning; when none can be read, the first frame's error is thrown. The frames after
    /// the first are read while `options.burstSeconds` last; a warning says how many were
    /// read in full when time ran out.
    private func scanBurst(at paths: [String], options: ScanOptions) throws -> ScanReport {
        guard let reader else { throw ScanError.ocrUnavailable }
        guard let first = paths.first else { throw ScanError.noPhotos }
        let start = Clock.now()
        let results = reader.read(burstAt: paths, within: options.burstSeconds)
        var readings: [(frame: Int, ocr: OCRResult)] = []
        var firstError: Error?
        var skipped: [SkippedFrame] = []
        for (i, r) in results.enumerated() {
            switch r {
            case .success(let ocr): readings.append((i, ocr))
            case .failure(let e):
                firstError = firstError ?? e
                skipped.append(SkippedFrame(frame: i + 1, path: paths[i], error: e))
            }
        }
        // The lead frame read most of the ingredient list surely; mean confidence breaks ties.
        // A frame the time ran out on is never the lead: the first frame is always read in full.
        let listWords = readings.map { LabelLanguages.listWordCount($0.ocr.words.map { ($0.text, $0.confidence) }) }
        let whole = readings.indices.filter { !readings[$0].ocr.outOfTime }
        guard let lead = (whole.isEmpty ? Array(readings.indices) : whole).max(by: {
            (listWords[$0], readings[$0].ocr.meanConfidence) < (listWords[$1], readings[$1].ocr.meanConfidence)
        }) else {
            throw firstError ?? ScanError.noPhotoReadable
        }
        let best = readings[lead]
        let t0 = Clock.now()
        let p = try parser()
        let parsed = readings.map { p.parse($0.ocr.text, words: $0.ocr.words) }
        let fused = BurstFusion.fuse(parsed, words: readings.map(\.ocr.words), lead: lead)
        var report = try report(from: fused, input: paths.count == 1 ? first : "\(first) (+\(paths.count - 1) frames)",
                                options: options)
        report.timingsMs.parse = Clock.between(t0, Clock.now()) - report.timingsMs.assess
        // Frames are read in parallel: stage times are sums of CPU-bound work, total is wall time.
        report.timingsMs.preprocess = readings.map(\.ocr.preprocessMs).reduce(0, +)
        report.timingsMs.ocr = readings.map(\.ocr.ocrMs).reduce(0, +)
        report.preprocessing = best.ocr.steps
        let low = RescanAdvice.likelyIncomplete(RescanAdvice.Evidence(best.ocr, found: report.additives.count))
        report.ocr = OCRSummary(best.ocr, lowConfidence: low)
        report.ocr?.frames = readings.count
        report.ocr?.frame = paths[best.frame]
        if let preview = best.ocr.preview {
            // The page shows the lead frame, with the words that frame read for each additive.
            let inFrame = report.additives.map { f -> Finding in
                var f = f
                f.spans = parsed[lead].mentions.filter { f.code.lineage.contains($0.code) || $0.code.lineage.contains(f.code) }.map(\.span)
                return f
            }
            report.photo = PhotoView.make(preview: preview, words: best.ocr.words, findings: inFrame)
        }
        report.skippedFrames = skipped
        if readings.count < paths.count {
            report.warnings.insert(.photosSkipped(skipped: paths.count - readings.count, of: paths.count), at: 0)
        }
        let cut = readings.filter(\.ocr.outOfTime).count
        if cut > 0 {
            report.warnings.append(.timeRanOut(readInFull: readings.count - cut, of: paths.count))
        }
        if report.additives.isEmpty, let prompt = RescanAdvice.prompt(RescanAdvice.Evidence(best.ocr, found: 0), photos: true) {
            report.warnings.insert(prompt, at: 0)
        }
        if readings.contains(where: { $0.ocr.timedOut }) {
            report.warnings.insert(.readingStopped, at: 0)
        }
        report.status = Self.status(unsure: low, cutShort: best.ocr.timedOut, found: !report.additives.isEmpty)
        report.timingsMs.total = Clock.since(start)
        return report
    }

    /// When OCR gave too little, looks for a product barcode in the same photo and
    /// uses the ingredients known for it. Never touches the network itself: the
    /// `products` source decides (the local cache unless the shopper opted in).
    /// True when a product's ingredient list was used.
    @discardableResult
    private func barcodeFallback(_ report: inout ScanReport, imageAt path: String, options: ScanOptions) throws -> Bool {
        guard let barcodeReader, let code = (try? barcodeReader.barcodes(inImageAt: path))?.first else { return false }
        report.barcode = code
        report.fallbackUsed = true
        guard let product = try products?.product(barcode: code.digits) else {
            report.warnings.append(.barcodeUnknown(digits: code.digits, searchedOnline: products?.searchesOnline ?? false))
            return false
        }
        let fromProduct = try assess(product, input: path, options: options)
        for f in fromProduct.additives where !report.additives.contains(where: { $0.code == f.code }) {
            report.additives.append(f)
        }
        for u in fromProduct.unmatched where !report.unmatched.contains(u) { report.unmatched.append(u) }
        report.warnings.append(.usedProduct(source: product.source, digits: code.digits))
        return true
    }

    /// Looks up a product by barcode (`scan barcode 4006381333931`) and checks its ingredients.
    /// Throws `parse_error` for a number that is not a valid barcode and `lookup_error` when no source knows it.
    private func scanBarcode(_ typed: String, options: ScanOptions) throws -> ScanReport {
        let start = Clock.now()
        guard let gtin = GTIN.lookupKeys(typed: typed).first else {
            throw ScanError.notABarcode(typed)
        }
        let digits = gtin.key
        guard let product = try products?.product(barcode: digits) else {
            throw ProductError.unknown(digits: digits, searchedOnline: products?.searchesOnline ?? false)
        }
        var report = try assess(product, input: digits, options: options)
        report.barcode = Barcode(symbology: gtin.symbology, digits: digits)
        report.warnings.append(.usedProduct(source: product.source, digits: digits))
        report.timingsMs.total = Clock.since(start)
        return report
    }

    /// Looks up a product by a photo of its barcode (`scan barcode photo.jpg`): the first
    /// barcode the reader decodes, then as typed digits. A UPC-E is looked up as the UPC-A
    /// it stands for (its 8 digits are not an EAN-8).
    ///
    /// - Throws: `capture_error` when the photo cannot be read or shows no barcode, else as `scanBarcode`.
    private func scanBarcodePhoto(at path: String, options: ScanOptions) throws -> ScanReport {
        guard let barcodeReader else { throw ScanError.barcodeReaderUnavailable }
        guard let found = try barcodeReader.barcodes(inImageAt: path).first else {
            throw ScanError.noBarcodeInPhoto
        }
        return try scanBarcode(GTIN(symbology: found.symbology, digits: found.digits)?.key ?? found.digits, options: options)
    }

    /// Longest ingredient text read, in UTF-8 bytes (typed, piped or from a product). The
    /// longest real ingredient lists are a few kilobytes; parsing costs memory in proportion
    /// to the text, and this keeps a whole scan well under 100 MB.
    public static let maxTextBytes = 100_000

    /// Scans typed ingredient text.
    ///
    /// - Throws: `parse_error` for text longer than `maxTextBytes`.
    private func scanText(_ text: String, input: String, options: ScanOptions) throws -> ScanReport {
        let start = Clock.now()
        guard text.utf8.count <= Self.maxTextBytes else {
            throw ScanError.textTooLong(bytes: text.utf8.count, limit: Self.maxTextBytes)
        }
        var report = try assess(text: text, words: nil, input: input, options: options)
        report.timingsMs.total = Clock.since(start)
        return report
    }

    /// Looks up a single code (`scan code E120`). Throws `lookup_error` when unknown.
    private func scanCode(_ text: String, options: ScanOptions) throws -> ScanReport {
        let start = Clock.now()
        guard let code = ECode(text) else {
            throw ScanError.notACode(text)
        }
        guard let additive = try catalog.additive(code: code) else {
            throw ScanError.unknownCode(code)
        }
        let mention = Mention(code: code, matchedText: [text], span: 0..<text.utf8.count, kind: .code)
        var report = ScanReport(input: text, region: options.preferences.region, versions: catalog.versions,
                                additives: [finding(additive, mention: mention, options: options)])
        if !catalog.dataIsVerified { report.warnings.insert(.untrustedData, at: 0) }
        report.timingsMs.total = Clock.since(start)
        return report
    }

    private func assess(text: String, words: [OCRWord]?, input: String, options: ScanOptions,
                        notingNothingFound: Bool = true) throws -> ScanReport {
        try assessed(text: text, words: words, input: input, options: options, notingNothingFound: notingNothingFound).report
    }

    /// A product's ingredients, assessed; the product source is told the codes found in them
    /// (an online find is cached with them).
    private func assess(_ product: Product, input: String, options: ScanOptions) throws -> ScanReport {
        let (report, codes) = try assessed(text: product.ingredientsText, words: nil, input: input, options: options)
        products?.assessed(product, codes: codes, region: options.preferences.region)
        return report
    }

    /// The report of `text`, and the distinct codes it names in order, each as the store files it.
    private func assessed(text: String, words: [OCRWord]?, input: String, options: ScanOptions,
                          notingNothingFound: Bool = true) throws -> (report: ScanReport, codes: [ECode]) {
        let t0 = Clock.now()
        let parsed = try parser().parse(text, words: words)
        var codes: [ECode] = []
        var report = try report(from: parsed, input: input, options: options, notingNothingFound: notingNothingFound,
                                codes: &codes)
        report.timingsMs.parse = Clock.between(t0, Clock.now()) - report.timingsMs.assess
        return (report, codes)
    }

    func report(from parsed: ParseResult, input: String, options: ScanOptions,
                notingNothingFound: Bool = true) throws -> ScanReport {
        var codes: [ECode] = []
        return try report(from: parsed, input: input, options: options, notingNothingFound: notingNothingFound, codes: &codes)
    }

    /// Resolves, merges and assesses the mentions of `parsed`; `codes` gets the distinct codes
    /// named, in order, each as the store files it (the code as named when the store lacks it).
    private func report(from parsed: ParseResult, input: String, options: ScanOptions, notingNothingFound: Bool,
                        codes: inout [ECode]) throws -> ScanReport {
        let t1 = Clock.now()
        var findings: [Finding] = []
        var unmatched = parsed.unmatched
        var seen = Set<ECode>()
        // Each distinct code is resolved once (a long text repeats its codes): the code its card
        // is filed under, since a group code beside a more specific one (E150 and E150a) joins
        // the specific card, and that card's record, nil when the store lacks the code.
        var stored: [ECode: Additive] = [:]
        var inStore: [ECode] = []
        var distinct: [ECode] = []
        var seenCodes = Set<ECode>()
        for m in parsed.mentions where seenCodes.insert(m.code).inserted {
            distinct.append(m.code)
            if let a = try catalog.additive(code: m.code) { stored[m.code] = a; inStore.append(m.code) }
        }
        var named = Set<ECode>()
        codes = distinct.compactMap { c in
            let filed = stored[c]?.code ?? c
            return named.insert(filed).inserted ? filed : nil
        }
        let card = ECode.cards(for: inStore)
        var resolved: [ECode: (code: ECode, additive: Additive?)] = [:]
        for c in distinct {
            let filed = card[c] ?? c
            resolved[c] = (filed, stored[filed])
        }
        for var mention in parsed.mentions {
            let r = resolved[mention.code]
            mention.code = r?.code ?? mention.code
            guard let additive = r?.additive else {
                if !unmatched.contains(mention.code.description) { unmatched.append(mention.code.description) }
                continue
            }
            // One card per distinct additive: merge repeated mentions into the first.
            if !seen.insert(additive.code).inserted {
                if let i = findings.firstIndex(where: { $0.code == additive.code }) {
                    for t in mention.matchedText where !findings[i].matchedText.contains(t) {
                        findings[i].matchedText.append(t)
                    }
                    findings[i].spans.append(mention.span)
                }
                continue
            }
            var f = finding(additive, mention: mention, options: options)
            f.spans = [mention.span]
            findings.append(f)
        }
        var report = ScanReport(input: input, region: options.preferences.region, versions: catalog.versions,
                                additives: findings, unmatched: unmatched)
        if !catalog.dataIsVerified { report.warnings.append(.untrustedData) }
        // A sensitivity the shopper watches for that the label names in words of its own
        // (`preservative: sulphites`), when no card already carries its caution.
        let carried = Set(findings.compactMap { stored[$0.code]?.population }.joined())
        for n in parsed.named where options.preferences.sensitivities.contains(n.sensitivity)
            && !carried.contains(where: { RiskEngine.cautionSensitivity[$0] == n.sensitivity }) {
            report.warnings.append(.namedOnLabel(n.sensitivity, text: n.text))
        }
        report.timingsMs.assess = Clock.since(t1)
        if findings.isEmpty && notingNothingFound {
            report.warnings.append(.nothingFound)
        }
        return report
    }

    private func finding(_ a: Additive, mention: Mention, options: ScanOptions) -> Finding {
        let day = options.asOf ?? .today()
        let verdict = RiskEngine.assess(a, preferences: options.preferences, on: day)
        let rule = a.rule(for: options.preferences.region, on: day)
        var refs = a.references
        // The shopper's region's own rule is cited first (a US card leads with the eCFR section);
        // the record's copy of the same text (no provision) is not listed twice.
        if let r = rule?.reference {
            refs.removeAll { $0.label == r.label && $0.url == r.url }
            refs.insert(r, at: 0)
        }
        var elsewhere: [Region: Badge] = [:]
        for region in options.compareRegions {
            var p = options.preferences
            p.region = region
            elsewhere[region] = RiskEngine.assess(a, preferences: p, on: day).badge
        }
        let name = a.displayName(in: options.preferences.region)
        return Finding(code: a.code, name: name, badge: verdict.badge,
                       matchedText: mention.matchedText, matchKind: mention.kind,
                       function: mention.function ?? a.classes.first, risk: a.plainRisk.summary,
                       audience: a.plainRisk.audience, diet: a.dietary, reasons: verdict.reasons,
                       statement: rule?.warningRequired == true ? rule?.statement(naming: name) : nil, references: refs,
                       regionBadges: elsewhere)
    }
}

/// Monotonic milliseconds.
enum Clock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
    }
    static func since(_ start: Double) -> Double { round3(now() - start) }
    static func between(_ a: Double, _ b: Double) -> Double { round3(b - a) }
    private static func round3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
