import EcodexCore
import Foundation

/// Where Tesseract's language files live and which of them are installed.
enum TessData {
    /// The Debian/Ubuntu location of the `tesseract-ocr-*` language packages.
    static let debianDefault = "/usr/share/tesseract-ocr/5/tessdata"
    /// Languages printed on the labels we expect, in order of preference.
    static let labelLanguages = ["eng", "deu", "fra", "spa", "ita", "nld"]

    /// The folder to search: `dataPath`, else `TESSDATA_PREFIX`, else the Debian default.
    ///
    /// Tesseract 5 wants the folder that holds the `.traineddata` files, but
    /// older setups point `TESSDATA_PREFIX` at its parent; accept both.
    static func folder(_ dataPath: String?) -> String {
        let base = dataPath ?? ProcessInfo.processInfo.environment["TESSDATA_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }
            ?? debianDefault
        let nested = (base as NSString).appendingPathComponent("tessdata")
        if !hasAnyModel(base), hasAnyModel(nested) { return nested }
        return base
    }

    static func file(_ language: String, in folder: String) -> String {
        (folder as NSString).appendingPathComponent("\(language).traineddata")
    }

    static func isInstalled(_ language: String, in folder: String) -> Bool {
        // A language code is a file-name stem; refuse anything that could walk the file system.
        guard !language.isEmpty, !language.contains("/"), !language.hasPrefix(".") else { return false }
        return FileManager.default.isReadableFile(atPath: file(language, in: folder))
    }

    /// Throws `EcodexError.ocr` naming the first missing language and the folder searched.
    static func requireInstalled(_ languages: [String], in folder: String) throws {
        guard !languages.isEmpty else {
            throw EcodexError.ocr(
                "No OCR language data was found in \(folder). The label languages (eng, deu, fra, spa, ita, nld) need installing.",
                advice: .installOCR)
        }
        for language in languages where !isInstalled(language, in: folder) {
            throw EcodexError.ocr(
                "OCR language '\(language)' is not installed: \(language).traineddata is missing from \(folder) (Debian package tesseract-ocr-\(language)), or choose another language.",
                advice: .installOCR,
                detail: "searched \(file(language, in: folder))")
        }
    }

    /// Tesseract's Latin-script model (Debian `tesseract-ocr-script-latn`), one model for every
    /// language written in Latin letters; nil when not installed. Whole phone photos are read
    /// with it: their panels mix German, French and Italian, and one model reads all three
    /// faster than the six label languages together.
    static func latinScriptModel(in folder: String) -> String? {
        if isInstalled("Latin", in: folder) { return "Latin" }
        let nested = (folder as NSString).appendingPathComponent("script/Latin.traineddata")
        return FileManager.default.isReadableFile(atPath: nested) ? "script/Latin" : nil
    }

    private static func hasAnyModel(_ folder: String) -> Bool {
        labelLanguages.contains { isInstalled($0, in: folder) }
    }
}
