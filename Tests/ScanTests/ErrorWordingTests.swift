import EcodexBench
import EcodexCore
import EcodexOnline
import EcodexStore
import EcodexVision
import Foundation
@testable import scan
import Testing

/// The libraries throw typed errors that carry data; `Failure` (in `scan`) alone words them.
/// These tests hold both halves to that: no library text names a `scan` command or a flag,
/// and every library error case comes out of `Failure` with its class and a shopper's message.
@Suite struct ErrorWordingTests {
    static let folder = URL(fileURLWithPath: "/data/ecodex")
    static let file = URL(fileURLWithPath: "/data/ecodex/additives.sqlite")

    /// One of every case of every library error, with sample data.
    static let libraryErrors: [any ClassifiedError] = {
        var all: [any ClassifiedError] = [
            ScanError.ocrUnavailable, ScanError.barcodeReaderUnavailable, ScanError.noPhotos, ScanError.noPhotoReadable, ScanError.noBarcodeInPhoto,
            ScanError.notABarcode("123"), ScanError.notACode("hello"), ScanError.unknownCode(ECode("E999")!), ScanError.textTooLong(bytes: 200_000, limit: 100_000),
            ProductError.unknown(digits: "4006381333931", searchedOnline: false), ProductError.unknown(digits: "4006381333931", searchedOnline: true),
            TextLineError.tooLong(limit: 800_000), TextLineError.notAnObject(detail: "unexpected byte"), TextLineError.noTextField, TextLineError.unreadable(reason: "I/O error"),
            PreferencesError.notKeyValue(line: 3), PreferencesError.atLine(path: "/p.conf", line: 3, text: "x", .notKeyValue(line: 3)),
            PreferencesError.atLine(path: "/p.conf", line: 4, text: "y = 1", .unknownKey("y", known: [])), PreferencesError.unknownKey("colour", known: PreferencesFile.keys),
            PreferencesError.badValue(key: "region", value: "Mars", allowed: "EU, US, UK, CA, AU, IN or auto"),
            PackError.malformed("truncated"), PackError.signature("too few"), PackError.checksum("differs"), PackError.schema("bad record"),
            PackError.notNewer("pack 1.0.0 is not newer than 1.0.0"), PackError.wrongBase("for 1.0.1"), PackError.keys("Cannot read the key file k.json."),
            PackError.downgrade(offered: SemanticVersion("1.0.1")!, highest: SemanticVersion("1.0.2")!),
            PackError.expired(version: SemanticVersion("1.0.1")!, expiresAt: "2026-01-01T00:00:00Z"),
            GoldSetError.notATruthLine(line: 2, detail: "not JSON"), GoldSetError.notACode(line: 1, text: "X1"), GoldSetError.noTruthFile(path: "/tmp/truth.jsonl"),
            ImageError.empty(path: "a.jpg"), ImageError.notAnImage(path: "a.jpg", detail: "signature"),
            ImageError.tooLarge(width: 30000, height: 30000, maxPixels: 40_000_000, maxSide: 20000),
            ImageError.tooThin(width: 20000, height: 1, minSide: 16, maxAspect: 25), ImageError.damaged(path: "a.jpg", detail: "warnings"),
            ImageError.notPrepared(detail: "leptonica"), ImageError.tooManyScans(path: "a.jpg", maxScans: 100),
            ImageError.progressiveTooLarge(width: 10000, height: 10000, maxPixels: 60_000_000),
            ImageError.unsupported(path: "IMG_0001.HEIC", format: "HEIC/HEIF", detail: "libheif is not installed"),
            OCRError.engineFailed(detail: "NULL"), OCRError.librariesMissing(detail: "Tesseract (libtesseract5) is not installed or cannot load"),
            OCRError.languageDataFailed(languages: "eng", folder: "/usr/share/tessdata", code: -1),
            OCRError.noLanguageData(folder: "/usr/share/tessdata"), OCRError.languageMissing(language: "xyz", folder: "/usr/share/tessdata"),
            OCRError.recognitionFailed(code: -1), OCRError.notRead,
            StoreError.damaged(path: file, detail: "page 3"), StoreError.newerSchema(path: file, found: 9, supported: 4),
            StoreError.cannotWrite(folder: folder, detail: "EROFS"), StoreError.readOnlyUpgrade(path: file, detail: "EACCES"),
            StoreError.ownedByOther(path: folder, owner: 65534), StoreError.writableByOthers(path: folder, mode: 0o777),
            StoreError.unreadable(path: file, detail: "EACCES"), StoreError.readFailed(path: file, detail: "SQLITE_IOERR"),
            StoreError.basePackMissing(detail: "missing"), StoreError.buildFailed(detail: "SQLITE_FULL"),
            HistoryError.damaged(path: file, detail: "header"), HistoryError.newerSchema(path: file, found: 9, supported: 3),
            HistoryError.unavailable(path: file, detail: "EACCES"), HistoryError.readOnly(path: file),
            ProductListError.damaged(path: file, detail: "header"), ProductListError.newerSchema(path: file, found: 9), ProductListError.unreadable(path: file, detail: "EACCES"),
            ImportError.cannotReplace(path: "/data/products.sqlite", detail: "EXDEV"), ImportError.cannotWrite(folder: folder, detail: "ENOSPC"),
            ImportError.cannotAddTo(path: "/data/products.sqlite", version: 9), ImportError.readFailed(reason: "EIO"),
            ImportError.firstLineTooLong(limit: 16_000_000), ImportError.empty, ImportError.compressed, ImportError.notAnExport,
            UpdateError.buildFailed(detail: "SQLITE_FULL"), UpdateError.writeFailed(folder: folder, detail: "ENOSPC"),
            UpdateError.saveFailed(folder: folder, detail: "fsync"), UpdateError.nothingToRollBack, UpdateError.previousDamaged, UpdateError.cannotListFolder(folder),
            OpenFoodFactsError.invalidAddress("::"), OpenFoodFactsError.notHTTPS("http://example.org"), OpenFoodFactsError.unexpectedStatus(418), OpenFoodFactsError.tooLarge(limit: 2 << 20),
            OpenFoodFactsError.refusedRedirect(detail: "to http://127.0.0.2"), OpenFoodFactsError.busy(attempts: 3, last: "HTTP 429"),
            OpenFoodFactsError.timedOut(attempts: 3, budget: 3.5, last: "no answer"), OpenFoodFactsError.unreadableAnswer(bytes: 12),
            PackFetchError.notASource("x"), PackFetchError.notHTTPS("http://example.org/x.pack"), PackFetchError.httpStatus(404, url: "https://example.org/x.pack"),
            PackFetchError.tooLarge(url: "https://example.org/x.pack", limit: 16 << 20), PackFetchError.timedOut(seconds: 120, url: "https://example.org/x.pack"),
            PackFetchError.refusedRedirect(detail: "to http"), PackFetchError.failed(host: "example.org", detail: "no route"),
            UpdateServerError.notAServer("ftp://x"), UpdateServerError.notAPackList("https://example.org"),
            UpdateServerError.notJSON("https://example.org/v1/packs/latest"), UpdateServerError.noDownloadAddress(version: "1.0.2"),
            UpdateServerError.damagedDownload(version: "1.0.2"),
        ]
        for role in [InputFile.Role.photo, .pack, .productList, .preferences, .texts] {
            all += [InputFileError.missing(path: "/x", role: role), InputFileError.cannotOpen(path: "/x", role: role, reason: "EACCES"),
                    InputFileError.cannotRead(path: "/x", role: role, reason: "EIO"),
                    InputFileError.notARegularFile(path: "/x", role: role, kind: "a pipe (FIFO)"),
                    InputFileError.tooLarge(path: "/x", role: role, limit: 1 << 20)]
        }
        return all
    }()

    /// `scan bench`, `scan store rebuild` or `` `scan text` ``, and `--online`: how the command line is
    /// named. ("scan history" alone is also plain words, so only a backticked `scan …` counts for those.)
    static func namesCommandOrFlag(_ text: String) -> Bool {
        let commands = "bench|prefs|store|pack|products|update|advice|lookup|burst|batch"
        return text.range(of: "\\bscan (\(commands))\\b|`scan\\b|(^|[\\s(`])--[a-z]", options: .regularExpression) != nil
    }

    @Test func theCheckSeesACommandOrAFlag() {
        #expect(Self.namesCommandOrFlag("Point scan bench at the goldset folder."))
        #expect(Self.namesCommandOrFlag("Retry with --online."))
        #expect(Self.namesCommandOrFlag("Run `scan history reset`."))
        #expect(!Self.namesCommandOrFlag("Your scan history file is damaged."))
    }

    @Test func libraryErrorsNameNoCommandOrFlag() {
        for error in Self.libraryErrors {
            #expect(!Self.namesCommandOrFlag(error.description), "\(type(of: error)): \(error.description)")
        }
    }

    /// Every string literal in the library sources (the renderers' report text aside): none names
    /// a command or a flag. This is what failed before the errors were typed: `GoldSet` said
    /// "Point scan bench at the goldset folder."
    @Test func librarySourcesNameNoCommandOrFlag() throws {
        let sources = URL(fileURLWithPath: ScanBinary.path("Sources"))
        let libraries = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasPrefix("Ecodex") }
        #expect(libraries.count >= 5)
        var checked = 0
        for library in libraries {
            let folder = sources.appendingPathComponent(library)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            // The server's own command line (its options and their checks) is a CLI layer, as `scan` is.
            for file in files where file.hasSuffix(".swift") && !file.hasPrefix("Rendering/") && file != "EcodexServerCommand.swift" {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
                    for literal in Self.stringLiterals(String(line)) {
                        checked += 1
                        #expect(!Self.namesCommandOrFlag(literal), "\(library)/\(file):\(n + 1): \"\(literal)\"")
                    }
                }
            }
        }
        #expect(checked > 500)
    }

    /// The contents of the `"…"` literals on one line of Swift.
    static func stringLiterals(_ line: String) -> [String] {
        var out: [String] = []
        var current: String?
        var escaped = false
        for c in line {
            if var s = current {
                if escaped { escaped = false; s.append(c); current = s; continue }
                if c == "\\" { escaped = true; s.append(c); current = s; continue }
                if c == "\"" { out.append(s); current = nil; continue }
                s.append(c)
                current = s
            } else if c == "\"" {
                current = ""
            }
        }
        return out
    }

    /// `Failure` words every case: a message of its own (not the technical description), the
    /// case's class, and none of the words REQUIREMENTS.md rules out ("safe", "unsafe").
    @Test func everyLibraryErrorIsWordedByFailure() {
        for error in Self.libraryErrors {
            let shown = Failure.classify(error)
            let label = "\(type(of: error)): \(error.description)"
            #expect(shown.errorClass == error.errorClass, "\(label)")
            // A key-file problem's reason is already the whole message (`PackError.keys`).
            let wordedByLibrary = if case .keys? = error as? PackError { true } else { false }
            #expect(!shown.message.isEmpty && (shown.message != error.description || wordedByLibrary),
                    "\(label) is not worded: \(shown.message)")
            #expect(shown.detail == error.description, "\(label)")
            let words = Set(shown.message.lowercased().split { !$0.isLetter }.map(String.init))
            #expect(words.isDisjoint(with: ["safe", "unsafe"]), "\(label): \(shown.message)")
        }
    }

    /// The exit code of each class, as README "Exit codes" lists them.
    @Test func classesKeepTheirExitCodes() {
        let codes = Dictionary(uniqueKeysWithValues: ErrorClass.allCases.map { ($0.rawValue, $0.exitCode) })
        #expect(codes == ["capture_error": 10, "ocr_error": 11, "parse_error": 12, "lookup_error": 13,
                          "network_error": 14, "update_error": 15])
    }
}
