import ArgumentParser
import EcodexBench
import EcodexCore
import EcodexOnline
import EcodexStore
import EcodexVision
import Foundation

/// The one place that turns what the libraries throw into what the shopper sees: the
/// error's class (and so its exit code, README "Exit codes"), its message, and the advice
/// worded as a command to run. Libraries throw typed errors that carry data (a path, the
/// digits, a limit) and their class, never a sentence, a command or a flag; `worded(_:)`
/// below says each case in this command line's words and `Advice.sentence` names the command.
enum Failure {
    /// `error` as a classified failure. Anything the libraries did not classify is a
    /// `capture_error` for the input at hand (never a crash, never exit 1).
    static func classify(_ error: Error, arguments: [String] = CommandLine.arguments) -> EcodexError {
        switch error {
        case let e as EcodexError: e
        case let e as any ClassifiedError: worded(e)
        default: unclassified(error, command: arguments.dropFirst().first ?? "")
        }
    }

    /// An error no library classified (a file that could not be written, say): the class of
    /// the command's own work, with the system's words.
    static func unclassified(_ error: Error, command: String) -> EcodexError {
        let reason = (error as NSError).localizedDescription
        switch command {
        case "pack", "update", "products":
            return .update("The update or import could not be completed: \(reason)", detail: "\(error)")
        case "prefs":
            return .lookup("Ecodex could not write the preferences file (ECODEX_CONFIG): \(reason)", detail: "\(error)")
        case "history", "store":
            return .lookup("Ecodex could not read or write its files: \(reason)", advice: .chooseDataFolder, detail: "\(error)")
        default:
            return .capture("Something went wrong reading this input: \(reason) Try again.", detail: "\(error)")
        }
    }

    /// A library error as the shopper reads it: its class, message and advice, with the
    /// library's own description kept as the detail.
    static func worded(_ error: any ClassifiedError) -> EcodexError {
        let (message, advice) = words(error)
        return EcodexError(error.errorClass, message, advice: advice, detail: error.description)
    }

    /// The message and advice for each case of each library error. A type missing here is
    /// shown by its description (a test walks every case so none is).
    static func words(_ error: any ClassifiedError) -> (String, Advice?) {
        switch error {
        case let e as ScanError: words(e)
        case let e as ProductError: words(e)
        case let e as InputFileError: words(e)
        case let e as TextLineError: words(e)
        case let e as PreferencesError: words(e)
        case let e as PackError: (words(e), nil)
        case let e as GoldSetError: (words(e), nil)
        case let e as ImageError: (words(e), nil)
        case let e as OCRError: words(e)
        case let e as StoreError: words(e)
        case let e as HistoryError: words(e)
        case let e as ProductListError: words(e)
        case let e as ImportError: words(e)
        case let e as UpdateError: words(e)
        case let e as OpenFoodFactsError: words(e)
        case let e as PackFetchError: (words(e), nil)
        case let e as UpdateServerError: (words(e), nil)
        case let e as EcodexError: (e.message, e.advice)
        default: (error.description, nil)
        }
    }

    static func words(_ e: ScanError) -> (String, Advice?) {
        switch e {
        case .ocrUnavailable: ("The OCR engine is not available.", nil)
        case .barcodeReaderUnavailable: ("The barcode reader is not available.", nil)
        case .noPhotos: ("Give at least one photo.", nil)
        case .noPhotoReadable: ("None of these photos could be read. Take them again or type the ingredients.", nil)
        case .noBarcodeInPhoto: ("No barcode was found in this photo. Take it again closer, or type the digits.", nil)
        case .notABarcode(let typed): ("\"\(typed)\" is not a valid barcode number. Check the 8 to 14 digits under the bars.", nil)
        case .notACode(let text): ("\"\(text)\" is not an additive code. Codes look like E102 or E160a.", nil)
        case .unknownCode(let code):
            ("\(code) is not in the additive list. Check the code on the label, or type the ingredient name.", nil)
        case .textTooLong(_, let limit):
            ("This text is too long to be an ingredient list (over \(limit / 1000) kB). Give only the ingredients.", nil)
        }
    }

    static func words(_ e: ProductError) -> (String, Advice?) {
        switch e {
        case .unknown(let digits, searchedOnline: true):
            ("Barcode \(digits) is not saved on this computer, and Open Food Facts has no ingredient list for it.", .typeIngredients)
        case .unknown(let digits, searchedOnline: false):
            ("Barcode \(digits) is not saved on this computer.", .lookUpOnline)
        }
    }

    static func words(_ e: InputFileError) -> (String, Advice?) {
        let noun = e.role.noun
        let message = switch e {
        case .missing(let path, _): "No file at \(path). Check the path and try again."
        case .cannotOpen(let path, _, _): "The \(noun) \(path) cannot be opened. Check its permissions and try again."
        case .cannotRead(let path, _, _): "The \(noun) \(path) cannot be read."
        case .notARegularFile(let path, _, let kind): "\(path) is \(kind), not a \(noun). Give the file itself."
        case .tooLarge(let path, .pack, _): "The file \(path) is too large to be an Ecodex pack."
        case .tooLarge(let path, .preferences, _): "The preferences file \(path) is too large to be one."
        case .tooLarge(let path, _, let limit): "The \(noun) \(path) is too large (over \(limit / 1000) kB)."
        }
        return (message, e.role == .preferences ? .resetPreferences : nil)
    }

    static func words(_ e: TextLineError) -> (String, Advice?) {
        switch e {
        case .tooLong(let limit):
            ("This line is too long to be an ingredient list (over \(limit / 1000) kB). Give only the ingredients.", nil)
        case .notAnObject: ("This line is not a JSON object. Write each text as {\"text\": \"...\"} on a line of its own.", nil)
        case .noTextField: ("This line has no \"text\" field. Write each text as {\"text\": \"...\"} on a line of its own.", nil)
        case .unreadable: ("The ingredient texts cannot be read.", nil)
        }
    }

    static func words(_ e: PreferencesError) -> (String, Advice?) {
        switch e {
        case .notKeyValue(let line): ("Line \(line) of the preferences file is not `key = value`.", .resetPreferences)
        case .unknownKey(let key, let known): ("Unknown preference \"\(key)\". Use one of: \(known.joined(separator: ", ")).", nil)
        case .badValue(let key, let value, let allowed): ("\"\(value)\" is not a valid \(key). Use \(allowed).", nil)
        case .atLine(let path, let line, let text, .notKeyValue):
            ("Line \(line) of \(path) (\"\(text)\") is not `key = value`.", .resetPreferences)
        case .atLine(let path, let line, _, .unknownKey(let key, _)):
            ("Line \(line) of \(path): unknown preference \"\(key)\", ignored.", nil)
        case .atLine(let path, let line, _, let inner): ("Line \(line) of \(path): \(words(inner).0)", .resetPreferences)
        }
    }

    static func words(_ e: PackError) -> String {
        switch e {
        case .malformed(let s): "This is not a usable Ecodex pack: \(s). Download the update again."
        case .signature(let s):
            "The pack's signatures do not check out: \(s). Nothing was installed; get the update from the official source."
        case .checksum(let s): "The pack's data does not match its manifest: \(s). Nothing was installed; download the update again."
        case .schema(let s): "The pack's records are not valid: \(s). Nothing was installed; report this to the publisher."
        case .notNewer(let s): "\(s). Nothing was installed."
        case .wrongBase(let s): "\(s). Nothing was installed; apply the full pack or the missing updates first."
        case .keys(let s): s
        case .downgrade:
            "Refused: \(e.reason). An older pack can bring back data that was corrected since; nothing was installed."
        case .expired:
            "Refused: \(e.reason). An expired pack may be an old one replayed to hold back newer data; nothing was installed. Get the current update from the publisher."
        }
    }

    static func words(_ e: GoldSetError) -> String {
        switch e {
        case .notATruthLine(let line, _): "Line \(line) of the truth file is not a truth line."
        case .notACode(let line, let text): "Line \(line) of the truth file has \"\(text)\", which is not an additive code."
        case .noTruthFile(let path): "There is no truth file at \(path). Point scan bench at the goldset folder."
        }
    }

    static func words(_ e: ImageError) -> String {
        switch e {
        case .empty(let path): "The file \(path) is empty. Take the photo again or type the ingredients."
        case .notAnImage: "This file is not a readable photo (JPEG, PNG, HEIC, TIFF, WebP or BMP). Take the photo again or type the ingredients."
        case .unsupported(_, let format, _):
            "This \(format) photo cannot be read on this computer. Save it as JPEG and scan that."
        case .tooLarge(let width, let height, let maxPixels, _):
            "This image is too large (\(width)×\(height) pixels). Use a photo under \(maxPixels / 1_000_000) megapixels, or crop to the ingredient list."
        case .tooThin(let width, let height, _, _):
            "This image (\(width)×\(height) pixels) is too thin to be a photo of a label. Take the photo again or type the ingredients."
        case .tooManyScans(_, let maxScans):
            "This photo is saved in more than \(maxScans) passes, too many to read. Take it again, or save it as a standard JPEG."
        case .progressiveTooLarge(let width, let height, let maxPixels):
            "This progressive JPEG (\(width)×\(height) pixels) is too large to read. Use one under \(maxPixels / 1_000_000) megapixels, or save it as a standard JPEG."
        case .damaged: "This photo is damaged or incomplete. Take the photo again or type the ingredients."
        case .notPrepared: "This photo could not be prepared for reading. Take the photo again or type the ingredients."
        }
    }

    static func words(_ e: OCRError) -> (String, Advice?) {
        switch e {
        case .engineFailed: ("The OCR engine could not start. Try again, or type the ingredients.", nil)
        case .librariesMissing: ("The photo reader is not installed. You can type the ingredients instead.", .installOCR)
        case .languageDataFailed(let languages, let folder, _):
            ("The OCR engine could not load language data '\(languages)' from \(folder). Reinstall it, or choose other languages.", .installOCR)
        case .noLanguageData(let folder):
            ("No OCR language data was found in \(folder). The label languages (eng, deu, fra, spa, ita, nld) need installing.", .installOCR)
        case .languageMissing(let language, let folder):
            ("OCR language '\(language)' is not installed in \(folder). \(installedLanguages(folder))", nil)
        case .recognitionFailed: ("The text on this photo could not be read. Take the photo again or type the ingredients.", nil)
        case .notRead: ("This photo was not read.", nil)
        }
    }

    /// The languages a `--lang` may name here, read from the folder searched: never a package
    /// name guessed from a code that may not be a language at all.
    static func installedLanguages(_ folder: String) -> String {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let names = files.filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(12)) }.sorted()
        guard !names.isEmpty else { return "No languages are installed there." }
        return "Use --lang with installed ones: \(names.prefix(20).joined(separator: "+"))\(names.count > 20 ? ", …" : "")."
    }

    /// What the shopper can do about a barcode this computer does not know, when lookups are off.
    static func noteBarcodeOffline(_ report: ScanReport) {
        guard let code = report.barcode, report.fallbackUsed,
              report.warnings.contains(.barcodeUnknown(digits: code.digits, searchedOnline: false)) else { return }
        Quiet.note("scan: note: barcode \(code.digits): \(Advice.lookUpOnline.sentence)")
    }

    /// `-o FILE` that cannot be written.
    static func cannotWriteOutput(_ path: String, reason: String) -> String {
        "Cannot write the result to \(path): \(reason). Choose a file in a folder you can write to."
    }

    /// A pack source folder that is not there (a pack command run outside the repository).
    static func noPackSource(_ path: String) -> EcodexError {
        .update("There is no pack source folder at \(path). Give one with --source (packs/base in the source repository).")
    }

    /// An ingredient-texts file that cannot be read by `pack validate`.
    static func noTexts(_ path: String) -> EcodexError {
        .update("Cannot read the ingredient texts at \(path). Give a JSON Lines file with --texts.")
    }

    static func words(_ e: StoreError) -> (String, Advice?) {
        switch e {
        case .damaged: ("The additive list on this computer is damaged.", .rebuildStore)
        case .newerSchema:
            ("The additive list was made by a newer version of Ecodex. Update Ecodex, or restore the built-in list.", .rebuildStore)
        case .cannotWrite(let folder, _):
            ("Ecodex cannot write to its data folder \(folder.path) (it is read-only or not a folder).", .chooseDataFolder)
        case .ownedByOther(let path, _):
            ("Ecodex will not read its data through \(path.path): another user owns it and could change what scans show. Move the data folder somewhere of your own.",
             .chooseDataFolder)
        case .writableByOthers(let path, _):
            ("Ecodex will not read its data through \(path.path): other users can write there. Remove their write access (chmod go-w), or move the data folder.",
             .chooseDataFolder)
        case .readOnlyUpgrade(let path, _):
            ("The additive list needs an update but its file is read-only. Make \(path.path) writable.", .chooseDataFolder)
        case .unreadable(let path, _): ("Ecodex cannot read the additive list at \(path.path). Check the file's permissions.", .rebuildStore)
        case .readFailed: ("The additive list could not be read.", .rebuildStore)
        case .basePackMissing: ("The built-in additive list is missing or damaged. Reinstall Ecodex.", nil)
        case .buildFailed: ("The additive list could not be built. Reinstall Ecodex, or restore it.", .rebuildStore)
        }
    }

    static func words(_ e: HistoryError) -> (String, Advice?) {
        switch e {
        case .damaged: ("Your scan history file is damaged.", .resetHistory)
        case .newerSchema: ("Your scan history was saved by a newer version of Ecodex. Update Ecodex to read it.", nil)
        case .unavailable(let path, _):
            ("Ecodex cannot save or read scan history at \(path.path). Check that the folder is writable.", .chooseDataFolder)
        case .readOnly(let path):
            ("Scan history at \(path.path) is read-only: it can be listed but nothing is saved.", .chooseDataFolder)
        }
    }

    static func words(_ e: ProductListError) -> (String, Advice?) {
        switch e {
        case .damaged: ("The imported product list is damaged.", .importProducts)
        case .newerSchema:
            ("The imported product list was made by a newer version of Ecodex. Update Ecodex, or import the file again.", nil)
        case .unreadable(let path, _):
            ("Ecodex cannot read the imported product list at \(path.path). Check the file's permissions, or import it again.", nil)
        }
    }

    static func words(_ e: ImportError) -> (String, Advice?) {
        switch e {
        case .cannotReplace(let path, _): ("Ecodex could not put the new product list in place at \(path).", nil)
        case .cannotWrite(let folder, _):
            ("Ecodex could not write the product list in \(folder.path). Check the free disk space and that the folder is writable.", nil)
        case .cannotAddTo(let path, _):
            ("The product list at \(path) is not one this version of Ecodex can add to.", .importProductsReplacing)
        case .readFailed: ("Reading the product file failed.", nil)
        case .firstLineTooLong(let limit):
            ("This is not an Open Food Facts export: its first line is longer than \(limit / 1_000_000) MB.", nil)
        case .empty: ("The product file is empty. Give an Open Food Facts export in JSON Lines or CSV.", nil)
        case .compressed: ("This file is compressed. Unpack it first (or stream it in unpacked on standard input).", .importProducts)
        case .notAnExport:
            ("This does not look like an Open Food Facts export: it needs a `code` column and an `ingredients_text` column (or one product JSON object per line).",
             nil)
        }
    }

    static func words(_ e: UpdateError) -> (String, Advice?) {
        switch e {
        case .buildFailed: ("The update could not be built. Nothing was changed; try again.", nil)
        case .writeFailed(let folder, _):
            ("The update could not be written in \(folder.path). Nothing was changed; check the folder is writable and has space.", nil)
        case .saveFailed(let folder, _):
            ("The update could not be saved in \(folder.path). Nothing was changed; check the folder is writable and has space.", nil)
        case .nothingToRollBack: ("There is no earlier version to roll back to.", nil)
        case .previousDamaged: ("The earlier version on this computer is damaged, so it cannot be restored.", .rebuildStore)
        case .cannotListFolder(let folder): ("Cannot list the folder \(folder.path).", nil)
        }
    }

    static func words(_ e: OpenFoodFactsError) -> (String, Advice?) {
        switch e {
        case .invalidAddress(let address): ("The Open Food Facts address \"\(address)\" is not a valid URL.", nil)
        case .notHTTPS: ("Ecodex only talks to Open Food Facts over HTTPS. Use an https:// address.", nil)
        case .unexpectedStatus: ("Open Food Facts gave an unexpected answer. Try again later.", .typeIngredients)
        case .tooLarge: ("Open Food Facts sent an answer too large to be a product. Try again later.", .typeIngredients)
        case .refusedRedirect: ("The Open Food Facts address sent Ecodex somewhere it does not go.", .typeIngredients)
        case .busy: ("Open Food Facts is busy right now. Try again in a minute.", .typeIngredients)
        case .timedOut: ("Open Food Facts did not answer in time. Check the connection and try again.", .typeIngredients)
        case .unreadableAnswer: ("The answer from Open Food Facts could not be read. Try again later.", .typeIngredients)
        }
    }

    static func words(_ e: PackFetchError) -> String {
        switch e {
        case .notASource(let source): "\"\(source)\" is not a pack file, folder or URL."
        case .notHTTPS: "Updates are downloaded over https only. Use an https:// address."
        case .httpStatus(let status, _): "The update server did not send the pack (HTTP \(status)). Try again later."
        case .tooLarge: "The download is too large to be an Ecodex pack."
        case .timedOut(let seconds, _): "The update did not download within \(seconds) seconds. Try again on a better connection."
        case .refusedRedirect: "The update address redirected somewhere Ecodex does not download from (it must stay on https)."
        case .failed: "The update could not be downloaded (no connection?). Try again when online."
        }
    }

    static func words(_ e: UpdateServerError) -> String {
        switch e {
        case .notAServer(let address): "\"\(address)\" is not an update server address. Use an https:// address."
        case .notAPackList, .notJSON: "The update server's answer is not a list of packs. Ask its administrator."
        case .noDownloadAddress(let version): "The update server gave no download address for pack \(version)."
        case .damagedDownload(let version): "The download of pack \(version) is damaged (its checksum differs). Try again."
        }
    }

    /// The message with its advice, as printed.
    static func text(_ e: EcodexError) -> String {
        guard let advice = e.advice else { return e.message }
        return e.message + " " + advice.sentence
    }

    /// Prints a failure that ends the whole command, in the format the command line asked
    /// for, and returns its exit code.
    static func exitCode(for error: Error, arguments: [String] = CommandLine.arguments) -> Int32 {
        let e = classify(error, arguments: arguments)
        if jsonRequested(arguments) {
            print(Output.json(e, input: input(arguments)))
            fflush(nil)
        } else {
            FileHandle.standardError.write(Data("scan: \(e.errorClass.rawValue): \(text(e))\n".utf8))
        }
        return e.errorClass.exitCode
    }

    /// Why each skipped photo of a burst could not be read, one note a photo on standard error.
    static func noteSkipped(_ frames: [SkippedFrame]) {
        for f in frames {
            let why = text(classify(f.error))
            Quiet.note("scan: note: photo \(f.frame) (\(f.path)) was skipped: \(why)")
        }
    }

    /// The message of a library error, or the system's words for any other error: for the
    /// notes that do not fail a command (history not saved, a product list skipped).
    static func message(of error: Error) -> String {
        (error as? any ClassifiedError).map { worded($0).message } ?? "\(error)"
    }

    static func jsonRequested(_ arguments: [String]) -> Bool {
        for (i, a) in arguments.enumerated() {
            if a == "--format=json" || (a == "--format" && i + 1 < arguments.count && arguments[i + 1] == "json") { return true }
        }
        return false
    }

    /// The input a whole-command failure is about: the first argument after the command
    /// words that is not an option, else the command itself.
    static func input(_ arguments: [String]) -> String {
        let words = Array(arguments.dropFirst())
        var i = 0
        var command: [String] = []
        while i < words.count {
            let w = words[i]
            if w.hasPrefix("--") {
                i += w.contains("=") ? 1 : 2
                continue
            }
            if command.count < 2, Scan.commandWords.contains(w) {
                command.append(w)
            } else {
                return w
            }
            i += 1
        }
        return command.joined(separator: " ")
    }
}

extension Advice {
    /// The advice as this command line says it: what to run.
    var sentence: String {
        switch self {
        case .rebuildStore: "Run `scan store rebuild` to restore it."
        case .resetHistory: "Run `scan history reset` to set it aside and start a new one."
        case .resetPreferences: "Fix it in the file, or set it again with `scan prefs set KEY VALUE` (or start over: `scan prefs reset`)."
        case .typeIngredients: "Or type the ingredients with `scan text`."
        case .lookUpOnline: "Retry with --online to look it up, or type the ingredients with `scan text`."
        case .importProducts: "Import the product file again with `scan products import FILE`."
        case .importProductsReplacing: "Import without --add to replace it: `scan products import FILE`."
        case .chooseDataFolder: "Choose another folder with --data-dir or ECODEX_DATA_DIR."
        case .retryUpdate: "Run `scan update` again when online."
        case .installOCR: "Install Tesseract and its language data (Debian: tesseract-ocr-eng), or type the ingredients with `scan text`."
        case .listHistory: "Run `scan history` to see the numbers."
        }
    }

    /// A runnable example of every command `sentence` names (`FILE`, `DIR`, `URL` and `TEXT`
    /// stand for test inputs). `scan advice` prints these and a test runs each one.
    var commands: [[String]] {
        switch self {
        case .rebuildStore: [["store", "rebuild"]]
        case .resetHistory: [["history", "reset"]]
        case .resetPreferences: [["prefs", "set", "KEY", "VALUE"], ["prefs", "reset"]]
        case .typeIngredients: [["text", "TEXT"]]
        case .lookUpOnline: [["barcode", "4006381333931", "--online"], ["text", "TEXT"]]
        case .importProducts, .importProductsReplacing: [["products", "import", "FILE"]]
        case .chooseDataFolder: [["code", "E330", "--data-dir", "DIR"]]
        case .retryUpdate: [["update", "URL"]]
        case .installOCR: [["text", "TEXT"]]
        case .listHistory: [["history"]]
        }
    }
}

/// `scan advice`: lists every piece of advice with the commands it names, one JSON object
/// per line. Hidden: it exists so a test can run every command a message tells people to run.
struct AdviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advice", abstract: "List the advice messages and the commands they name (for tests).",
        shouldDisplay: false)

    func run() throws {
        for advice in Advice.allCases {
            let object: [String: Any] = ["advice": advice.rawValue, "sentence": advice.sentence, "commands": advice.commands]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
