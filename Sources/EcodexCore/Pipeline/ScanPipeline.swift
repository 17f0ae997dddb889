#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options for one scan. Each field's comment states its default.
public struct ScanOptions: Sendable {
    /// Whose rules and preferences to apply. Default: EU, no diets, no sensitivities.
    public var preferences: Preferences = Preferences()
    /// Mean OCR word confidence (0...100) below which the result carries a rescan prompt. Default 60.
    public var lowConfidenceThreshold: Double = 60
    /// Regions to compare side by side (`--compare EU,US`). Default: none.
    public var compareRegions: [Region] = []
    /// Wall time a burst spends reading the frames after its first (`scan burst --time-limit`);
    /// nil reads every frame in full. The first frame is always read in full.
    public var burstSeconds: Double? = ScanOptions.defaultBurstSeconds
    /// 2.5 s: a shopper holding a phone waits at most about 3 s for a 5-frame burst; the
    /// measurement behind it is in docs/history.md.
    public static let defaultBurstSeconds = 2.5
    public init(preferences: Preferences = Preferences(), lowConfidenceThreshold: Double = 60, compareRegions: [Region] = []) {
        self.preferences = preferences
        self.lowConfidenceThreshold = lowConfidenceThreshold
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

    /// The warning when OCR hit its time limit.
    public static let readingStopped = "Reading this photo took too long, so some text may be missing. Rescan it in better light."

    /// Scans one label photo.
    public func scanImage(at path: String, options: ScanOptions) throws -> ScanReport {
        guard let reader else { throw ScanError.ocrUnavailable }
        let start = Clock.now()
        let photo = try reader.prepare(imageAt: path)
        return try report(reading: try reader.recognize(photo), path: path, options: options, start: start)
    }

    /// Scans many label photos, each on its own (`scan a.jpg b.jpg …`): the reader reads them
    /// on as many cores as it has engines for, at most `ahead` past the last one handed on, and
    /// each reading is parsed and assessed here, one after the other, so `each` gets the results
    /// in input order, each as soon as it and the photos before it are read. A photo that fails
    /// gives its error in its place.
    public func scanImages(at paths: [String], options: ScanOptions, ahead: Int = 4,
                           each: (String, Result<ScanReport, Error>) -> Void) {
        guard let reader else {
            for p in paths { each(p, .failure(ScanError.ocrUnavailable)) }
            return
        }
        reader.read(imagesAt: paths, ahead: ahead) { i, reading in
            let start = Clock.now()
            each(paths[i], Result {
                var report = try self.report(reading: try reading.get(), path: paths[i], options: options, start: start)
                // Read in parallel: the photo's own stage times, not the wall time of the batch.
                report.timingsMs.total += report.timingsMs.preprocess + report.timingsMs.ocr
                return report
            })
        }
    }

    /// The report of one photo's reading: parse, assess, warnings, barcode fallback.
    private func report(reading ocr: OCRResult, path: String, options: ScanOptions, start: Double) throws -> ScanReport {
        var report = try assess(text: ocr.text, words: ocr.words, input: path, options: options)
        report.preprocessing = ocr.steps
        report.timingsMs.preprocess = ocr.preprocessMs
        report.timingsMs.ocr = ocr.ocrMs
        let low = isUnsure(ocr, options)
        report.ocr = OCRSummary(ocr, lowConfidence: low)
        if let preview = ocr.preview {
            report.photo = PhotoView.make(preview: preview, words: ocr.words, findings: report.additives)
        }
        if low {
            report.warnings.insert(Self.smallPrint(ocr) ? Self.printTooSmall : Self.hardToRead, at: 0)
        }
        if ocr.timedOut {
            report.warnings.insert(ScanPipeline.readingStopped, at: 0)
        }
        var usedProduct = false
        if low || report.additives.isEmpty {
            usedProduct = try barcodeFallback(&report, imageAt: path, options: options)
        }
        report.status = usedProduct ? .read : Self.status(unsure: low, cutShort: ocr.timedOut, found: !report.additives.isEmpty)
        report.timingsMs.total = Clock.since(start)
        return report
    }

    /// How much of a photo's list was read: nothing sure and nothing found is unreadable.
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
    public func scanBurst(at paths: [String], options: ScanOptions) throws -> ScanReport {
        guard let reader else { throw ScanError.ocrUnavailable }
        guard let first = paths.first else { throw ScanError.noPhotos }
        let start = Clock.now()
        let results = reader.read(burstAt: paths, within: options.burstSeconds)
        var readings: [(frame: Int, ocr: OCRResult)] = []
        var firstError: Error?
        for (i, r) in results.enumerated() {
            switch r {
            case .success(let ocr): readings.append((i, ocr))
            case .failure(let e): firstError = firstError ?? e
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
        let fused = BurstFusion.fuse(parsed, lead: lead)
        var report = try report(from: fused, input: paths.count == 1 ? first : "\(first) (+\(paths.count - 1) frames)",
                                options: options)
        report.timingsMs.parse = Clock.between(t0, Clock.now()) - report.timingsMs.assess
        // Frames are read in parallel: stage times are sums of CPU-bound work, total is wall time.
        report.timingsMs.preprocess = readings.map(\.ocr.preprocessMs).reduce(0, +)
        report.timingsMs.ocr = readings.map(\.ocr.ocrMs).reduce(0, +)
        report.preprocessing = best.ocr.steps
        let low = isUnsure(best.ocr, options)
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
        if readings.count < paths.count {
            report.warnings.insert("\(paths.count - readings.count) of \(paths.count) photos could not be read and were skipped.", at: 0)
        }
        let cut = readings.filter(\.ocr.outOfTime).count
        if cut > 0 {
            report.warnings.append("Time ran out: \(readings.count - cut) of \(paths.count) photos were read in full.")
        }
        if low && report.additives.isEmpty {
            report.warnings.insert(Self.smallPrint(best.ocr) ? Self.printTooSmallInFrames : Self.framesHardToRead, at: 0)
        }
        if readings.contains(where: { $0.ocr.timedOut }) {
            report.warnings.insert(ScanPipeline.readingStopped, at: 0)
        }
        report.status = Self.status(unsure: low, cutShort: best.ocr.timedOut, found: !report.additives.isEmpty)
        report.timingsMs.total = Clock.since(start)
        return report
    }

    /// An unsure reading's prompt to rescan.
    public static let hardToRead =
        "The photo was hard to read. Rescan it closer and in good light, scan the barcode, or type the ingredients."
    public static let framesHardToRead =
        "The photos were hard to read. Rescan closer and in good light, scan the barcode, or type the ingredients."
    /// The prompt when the print itself was too small (`smallPrintBelow`): light will not help, distance will.
    public static let printTooSmall =
        "The print is too small in this photo. Take it closer, scan the barcode, or type the ingredients."
    public static let printTooSmallInFrames =
        "The print is too small in these photos. Take them closer, scan the barcode, or type the ingredients."

    /// Print whose characters are under this many pixels high in the photo is too small to read
    /// (`OCRResult.printHeight`). On the annotated frames of the real development set's first 80
    /// videos, all 30 whose print measured 7 px or less read unsure (mean word confidence under 60),
    /// 26 of them finding nothing; letters 11 px high (07491) a person reads, Tesseract in part.
    public static let smallPrintBelow = 8.0

    private static func smallPrint(_ ocr: OCRResult) -> Bool {
        (ocr.printHeight ?? .infinity) < smallPrintBelow
    }

    /// A reading too unsure to trust without a rescan prompt: no words, or a low mean confidence.
    private func isUnsure(_ ocr: OCRResult, _ options: ScanOptions) -> Bool {
        ocr.words.isEmpty || ocr.meanConfidence < options.lowConfidenceThreshold
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
        report.warnings.removeAll { $0 == ScanPipeline.nothingFound }
        guard let product = try products?.product(barcode: code.digits) else {
            report.warnings.append(products?.searchesOnline ?? false
                ? "Barcode \(code.digits) is not saved on this computer, and Open Food Facts has no ingredient list for it. Type the ingredients instead."
                : "Barcode \(code.digits) is not saved on this computer. Look it up online, or type the ingredients.")
            return false
        }
        let fromProduct = try assess(text: product.ingredientsText, words: nil, input: path, options: options)
        for f in fromProduct.additives where !report.additives.contains(where: { $0.code == f.code }) {
            report.additives.append(f)
        }
        for u in fromProduct.unmatched where !report.unmatched.contains(u) { report.unmatched.append(u) }
        report.warnings.append("Used the ingredients \(product.source) for barcode \(code.digits).")
        return true
    }

    /// On every result while the data was installed from a pack the program's keys do not accept.
    public static let unverifiedData = "This additive data was not signed by the keys built into Ecodex; results may differ from published data."
    static let nothingFound = "No additives found. Scan the barcode or type the ingredients to check again."

    /// Looks up a product by barcode (`scan barcode 4006381333931`) and checks its ingredients.
    /// Throws `parse_error` for a number that is not a valid barcode and `lookup_error` when no source knows it.
    public func scanBarcode(_ typed: String, options: ScanOptions) throws -> ScanReport {
        let start = Clock.now()
        guard let gtin = GTIN.lookupKeys(typed: typed).first else {
            throw ScanError.notABarcode(typed)
        }
        let digits = gtin.key
        guard let product = try products?.product(barcode: digits) else {
            throw ProductError.unknown(digits: digits, searchedOnline: products?.searchesOnline ?? false)
        }
        var report = try assess(text: product.ingredientsText, words: nil, input: digits, options: options)
        report.barcode = Barcode(symbology: gtin.symbology, digits: digits)
        report.warnings.append("Used the ingredients \(product.source) for barcode \(digits).")
        report.timingsMs.total = Clock.since(start)
        return report
    }

    /// Looks up a product by a photo of its barcode (`scan barcode photo.jpg`): the first
    /// barcode the reader decodes, then as typed digits. A UPC-E is looked up as the UPC-A
    /// it stands for (its 8 digits are not an EAN-8).
    ///
    /// - Throws: `capture_error` when the photo cannot be read or shows no barcode, else as `scanBarcode`.
    public func scanBarcodePhoto(at path: String, options: ScanOptions) throws -> ScanReport {
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
    public func scanText(_ text: String, input: String = "text", options: ScanOptions) throws -> ScanReport {
        let start = Clock.now()
        guard text.utf8.count <= Self.maxTextBytes else {
            throw ScanError.textTooLong(bytes: text.utf8.count, limit: Self.maxTextBytes)
        }
        var report = try assess(text: text, words: nil, input: input, options: options)
        report.timingsMs.total = Clock.since(start)
        return report
    }

    /// Looks up a single code (`scan code E120`). Throws `lookup_error` when unknown.
    public func scanCode(_ text: String, options: ScanOptions) throws -> ScanReport {
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
        if !catalog.dataIsVerified { report.warnings.insert(ScanPipeline.unverifiedData, at: 0) }
        report.timingsMs.total = Clock.since(start)
        return report
    }

    private func assess(text: String, words: [OCRWord]?, input: String, options: ScanOptions) throws -> ScanReport {
        let t0 = Clock.now()
        let parsed = try parser().parse(text, words: words)
        var report = try report(from: parsed, input: input, options: options)
        report.timingsMs.parse = Clock.between(t0, Clock.now()) - report.timingsMs.assess
        return report
    }

    func report(from parsed: ParseResult, input: String, options: ScanOptions) throws -> ScanReport {
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
        if !catalog.dataIsVerified { report.warnings.append(ScanPipeline.unverifiedData) }
        // A sensitivity the shopper watches for that the label names in words of its own
        // (`preservative: sulphites`), when no card already carries its caution.
        let carried = Set(findings.compactMap { stored[$0.code]?.population }.joined())
        for n in parsed.named where options.preferences.sensitivities.contains(n.sensitivity)
            && !carried.contains(where: { RiskEngine.cautionSensitivity[$0] == n.sensitivity }) {
            report.warnings.append(RiskEngine.namedOnLabel(n))
        }
        report.timingsMs.assess = Clock.since(t1)
        if findings.isEmpty {
            report.warnings.append(ScanPipeline.nothingFound)
        }
        return report
    }

    private func finding(_ a: Additive, mention: Mention, options: ScanOptions) -> Finding {
        let verdict = RiskEngine.assess(a, preferences: options.preferences)
        let rule = a.rule(for: options.preferences.region)
        var refs = a.references
        // The shopper's region's own rule is cited first (a US card leads with the eCFR section).
        if let r = rule?.reference {
            refs.removeAll { $0 == r }
            refs.insert(r, at: 0)
        }
        var elsewhere: [Region: Badge] = [:]
        for region in options.compareRegions {
            var p = options.preferences
            p.region = region
            elsewhere[region] = RiskEngine.assess(a, preferences: p).badge
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
