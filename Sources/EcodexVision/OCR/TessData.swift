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

    /// Throws an `OCRError` naming the first missing language and the folder searched.
    static func requireInstalled(_ languages: [String], in folder: String) throws {
        guard !languages.isEmpty else {
            throw OCRError.noLanguageData(folder: folder)
        }
        for language in languages where !isInstalled(language, in: folder) {
            throw OCRError.languageMissing(language: language, folder: folder)
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

extension TessData {
    /// Index of the LSTM word list (`lstm-word-dawg`) in a `.traineddata` file's table.
    static let lstmWordListEntry = 19

    /// The bytes of the `.traineddata` file at `path` without its LSTM word list, or nil
    /// when the file is not a Tesseract model or has no word list.
    ///
    /// The Latin-script model's word list becomes a few hundred MB in memory and most of the
    /// model's start-up, and the reading is the same without it. The file is mapped, not read:
    /// only the kept parts are touched.
    ///
    /// A model file is a count of entries (UInt32), a table of absolute offsets (Int64 each,
    /// −1 for an absent entry) and the entries in table order, each running to the next
    /// present one (Tesseract's `TessdataManager`); little-endian on every machine we run on.
    static func withoutWordList(path: String) -> [UInt8]? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        return data.withUnsafeBytes { raw -> [UInt8]? in
            let size = raw.count
            guard size >= 4 else { return nil }
            let count = Int(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian)
            let header = 4 + 8 * count
            guard count > lstmWordListEntry, count <= 64, size >= header else { return nil }
            var offsets = (0..<count).map { Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 4 + 8 * $0, as: Int64.self))) }
            // Present entries must sit in order inside the file, after the table.
            let present = offsets.filter { $0 >= 0 }
            guard present.first.map({ $0 == header }) == true, zip(present, present.dropFirst()).allSatisfy({ $0 < $1 }),
                  present.last.map({ $0 <= size }) == true, offsets[lstmWordListEntry] >= 0 else { return nil }
            let start = offsets[lstmWordListEntry]
            let end = offsets[(lstmWordListEntry + 1)...].first { $0 >= 0 } ?? size
            let cut = end - start
            offsets[lstmWordListEntry] = -1
            for i in (lstmWordListEntry + 1)..<count where offsets[i] >= 0 { offsets[i] -= cut }
            var out: [UInt8] = []
            out.reserveCapacity(size - cut)
            withUnsafeBytes(of: UInt32(count).littleEndian) { out.append(contentsOf: $0) }
            for o in offsets { withUnsafeBytes(of: Int64(o).littleEndian) { out.append(contentsOf: $0) } }
            out.append(contentsOf: raw[header..<start])
            out.append(contentsOf: raw[end..<size])
            return out
        }
    }
}
