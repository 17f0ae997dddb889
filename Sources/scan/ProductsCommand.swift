import ArgumentParser
import EcodexCore
import EcodexOnline
import EcodexStore
import Foundation

struct ProductsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products",
        abstract: "Product lists for barcode lookups: import an Open Food Facts export, show what is there.",
        discussion: """
            A barcode is looked up in this order: the product cache (products found online before),
            the imported product list, then Open Food Facts online — only with --online or
            `scan prefs set online yes`, and only the barcode is sent.
            """,
        subcommands: [Import.self, Status.self],
        defaultSubcommand: Status.self
    )

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import an Open Food Facts export (JSON Lines, or the tab-separated CSV) for offline barcode lookups.",
            discussion: """
                The file is streamed: millions of products import with flat memory. Only each product's
                barcode and ingredient text are kept, in products.sqlite in the data folder. A compressed
                export can be streamed in: zcat products.jsonl.gz | scan products import -
                """)

        @Argument(help: "The export file (.jsonl or .csv), or - for standard input.")
        var file: String

        @Flag(help: "Add to the current product list instead of replacing it.")
        var add = false

        @Option(help: "Output format: text or json.")
        var format: DataFormat = .text

        @Option(help: "Folder for the additive store and history (default: $ECODEX_DATA_DIR or ~/.local/share/ecodex).")
        var dataDir: String?

        func run() throws {
            var out = Output(format: format == .json ? .json : .text)
            let importer = ProductImporter(location: Wiring.location(dataDir))
            let progress = WorkProgress("scan products import", total: nil, noun: "lines")
            do {
                let summary = try importer.importProducts(from: file, mode: add ? .add : .replace) { p in
                    let share = p.totalBytes.flatMap { $0 > 0 ? min(100, p.bytes * 100 / $0) : nil }
                    progress.update(done: p.lines, detail: share.map { "\($0)% of the file" } ?? "")
                }
                progress.finish()
                print(ProductsCommand.render(summary, file: file, format: format))
            } catch {
                progress.finish()
                out.failure(error, input: file)
            }
            let code = out.finish()
            if code != 0 { throw ExitCode(code) }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the product sources and what each holds.")

        @Option(help: "Output format: text or json.")
        var format: DataFormat = .text

        @Option(help: "Folder for the additive store and history (default: $ECODEX_DATA_DIR or ~/.local/share/ecodex).")
        var dataDir: String?

        func run() throws {
            var out = Output(format: format == .json ? .json : .text)
            do {
                let location = Wiring.location(dataDir)
                let env = ProcessInfo.processInfo.environment
                let cached = try UserStore.cachedProductCount(location: location)
                let info = try ProductDataset(location: location).info()
                let online = try PrefsCommand.load().online
                let url = URLText.redacted(env["ECODEX_OFF_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? OpenFoodFactsClient.defaultBaseURL)
                if format == .json {
                    print(JSONRenderer.encode(JSONOutput.ProductsStatus(
                        cache: .init(products: cached, path: location.userPath.path),
                        imported: info.map { .init(products: $0.products, source: $0.sourceName, format: $0.format,
                                                   importedAt: ISO8601DateFormatter().string(from: $0.importedAt),
                                                   bytes: $0.fileBytes, path: location.productsPath.path) },
                        online: .init(saved: online, url: url))))
                } else {
                    print("Barcode lookups ask, in this order:")
                    print("  1. Product cache (\(location.userPath.path)): \(count(cached)) product\(cached == 1 ? "" : "s") found online before")
                    if let info {
                        let when = ISO8601DateFormatter().string(from: info.importedAt)
                        print("  2. Imported product list (\(location.productsPath.path)): \(count(info.products)) products from \(info.sourceName) (\(info.format)), imported \(when), \(megabytes(info.fileBytes))")
                    } else {
                        print("  2. Imported product list: none. Import one with `scan products import FILE` (an Open Food Facts export).")
                    }
                    if online {
                        print("  3. Open Food Facts online (\(url)): on (saved setting; --no-online turns it off for one scan). Only the barcode is sent.")
                    } else {
                        print("  3. Open Food Facts online: off. Use --online for one scan, or `scan prefs set online yes`. Only the barcode is sent.")
                    }
                }
            } catch {
                out.failure(error, input: "products")
            }
            let code = out.finish()
            if code != 0 { throw ExitCode(code) }
        }
    }

    static func render(_ s: ProductImportSummary, file: String, format: DataFormat) -> String {
        let peak = peakMemoryMB()
        if format == .json { return JSONRenderer.encode(JSONOutput.ProductsImport(s, file: file, peakMemoryMB: peak)) }
        var skipped: [String] = []
        if s.skippedBarcode > 0 { skipped.append("\(count(s.skippedBarcode)) without a valid barcode") }
        if s.skippedIngredients > 0 { skipped.append("\(count(s.skippedIngredients)) without ingredients") }
        if s.skippedUnreadable > 0 { skipped.append("\(count(s.skippedUnreadable)) unreadable") }
        return """
            Imported \(count(s.imported)) of \(count(s.lines)) lines from \(file) (\(s.format))\(skipped.isEmpty ? "" : "; skipped " + skipped.joined(separator: ", ")).
            The product list now holds \(count(s.products)) products. \(String(format: "%.1f", s.seconds)) s, \(count(Int(s.linesPerSecond))) lines/s.
            """
    }

    static func count(_ n: Int) -> String {
        let f = NumberFormatter()
        f.numberStyle = .decimal
        f.locale = Locale(identifier: "en_US")
        return f.string(from: NSNumber(value: n)) ?? String(n)
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    /// This process's peak resident memory (VmHWM), in MB; nil where /proc is missing.
    static func peakMemoryMB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return nil }
        return kb / 1024
    }
}

