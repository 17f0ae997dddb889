import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Runs the reader over every photo in goldset/real, prints how much of the
/// truth it read and writes the text per file as JSON, for judging
/// preprocessing and language choices by measurement.
///
/// Off unless `ECODEX_VISION_EVAL` names the output file. Knobs:
/// `ECODEX_VISION_OFF` / `ECODEX_VISION_ON` (comma lists of steps to
/// disable or enable: channel, rescale, invert, normalize, deskew, orient), `ECODEX_VISION_LANGS` (e.g. `eng+deu`, or `default`), `ECODEX_VISION_RETRY` (line retry confidence),
/// `ECODEX_VISION_TARGET` (target text height), `ECODEX_VISION_PSM`, `ECODEX_VISION_ROTATE` (degrees: read turned copies).
@Test(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_VISION_EVAL"] != nil))
func goldSetEvaluation() throws {
    let env = ProcessInfo.processInfo.environment
    let off = Set((env["ECODEX_VISION_OFF"] ?? "").split(separator: ",").map(String.init))
    let on = Set((env["ECODEX_VISION_ON"] ?? "").split(separator: ",").map(String.init))
    var options = PreprocessOptions()
    options.bestChannel = (options.bestChannel || on.contains("channel")) && !off.contains("channel")
    options.rescale = options.rescale && !off.contains("rescale")
    options.invert = options.invert && !off.contains("invert")
    options.normalizeBackground = options.normalizeBackground && !off.contains("normalize")
    options.deskew = options.deskew && !off.contains("deskew")
    options.orient = options.orient && !off.contains("orient")
    if let t = env["ECODEX_VISION_TARGET"].flatMap(Double.init) { options.targetTextHeight = t }
    let langs = env["ECODEX_VISION_LANGS"] ?? "eng"
    let languages = langs == "default" ? nil : langs.split(separator: "+").map(String.init)
    let retry = env["ECODEX_VISION_RETRY"].flatMap(Double.init) ?? 75
    let t0 = Date()
    let reader = try TesseractLabelReader(languages: languages, dataPath: nil, options: options, retryBelowConfidence: retry,
                                      pageSegMode: env["ECODEX_VISION_PSM"].flatMap(Int32.init) ?? 6)
    let initMs = Date().timeIntervalSince(t0) * 1000

    let folder = Fixtures.goldsetReal
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
    var out: [String: String] = [:]
    var report: [String: [String: String]] = [:]
    let rotate = env["ECODEX_VISION_ROTATE"].flatMap(Double.init)
    let scratch = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    for f in files {
        var path = folder + "/" + f
        if let rotate, let original = PixImage.read(path) {
            // A turned copy, as a shopper holding the pack at an angle would take it.
            path = scratch + "/" + f + ".png"
            try Preprocessor.rotate(original.gray(), degrees: rotate).writePNG(to: path)
        }
        let cpu0 = threadCPUms()
        let r = try reader.read(imageAt: path)
        let cpu = threadCPUms() - cpu0
        out[f] = r.text
        report[f] = ["steps": r.steps.joined(separator: ", "),
                     "preprocessMs": String(format: "%.0f", r.preprocessMs),
                     "ocrMs": String(format: "%.0f", r.ocrMs),
                     "conf": String(format: "%.1f", r.meanConfidence),
                     "cpuMs": String(format: "%.0f", cpu)]
    }
    let score = try GoldSetScore(manifest: folder + "/manifest.jsonl", texts: out)
    let summary = String(format: "words found %.3f (micro) %.3f (mean per photo), printed E-codes %d/%d, init %.0f ms, read CPU %.0f ms",
                         score.wordRecall, score.meanWordRecall, score.codesFound, score.codesPrinted, initMs,
                         report.values.compactMap { Double($0["cpuMs"] ?? "") }.reduce(0, +))
    print("goldset/real:", summary)
    let data = try JSONSerialization.data(withJSONObject: ["text": out, "meta": report, "initMs": initMs, "summary": summary],
                                          options: [.sortedKeys])
    try data.write(to: URL(fileURLWithPath: env["ECODEX_VISION_EVAL"]!))
}

/// How much of the gold-set truth the OCR text contains.
///
/// Word recall: truth words (lower-cased letters and digits) found in the
/// text, counted with multiplicity. E-codes: each printed code found as
/// `E` + digits, with or without a space, exactly as printed.
struct GoldSetScore {
    var wordRecall = 0.0, meanWordRecall = 0.0
    var codesFound = 0, codesPrinted = 0

    init(manifest: String, texts: [String: String]) throws {
        var truthWords = 0, foundWords = 0, perPhoto: [Double] = []
        for line in try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n") {
            guard let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let file = entry["file"] as? String, let text = texts[file] else { continue }
            var truth = entry["truth_text_if_any"] as? String ?? ""
            // Some truths start with a note in brackets about the photo.
            if truth.hasPrefix("("), let close = truth.firstIndex(of: ")") { truth = String(truth[truth.index(after: close)...]) }
            var have: [String: Int] = [:]
            for w in Self.words(text) { have[w, default: 0] += 1 }
            let want = Self.words(truth)
            var found = 0
            for w in want where (have[w] ?? 0) > 0 { have[w]! -= 1; found += 1 }
            truthWords += want.count; foundWords += found
            perPhoto.append(want.isEmpty ? 0 : Double(found) / Double(want.count))
            let compact = text.uppercased().replacingOccurrences(of: " ", with: "")
            for code in entry["e_codes_printed"] as? [String] ?? [] {
                codesPrinted += 1
                if compact.contains(code.uppercased()) { codesFound += 1 }
            }
        }
        wordRecall = truthWords == 0 ? 0 : Double(foundWords) / Double(truthWords)
        meanWordRecall = perPhoto.isEmpty ? 0 : perPhoto.reduce(0, +) / Double(perPhoto.count)
    }

    static func words(_ s: String) -> [String] {
        s.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
}

/// CPU time of the calling thread: unlike wall time it does not count the
/// time other processes hold the shared cores.
func threadCPUms() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}
