import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Runs the reader over every photo in goldset/real and writes the text per
/// file as JSON, for scoring preprocessing choices outside the test suite.
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
    let data = try JSONSerialization.data(withJSONObject: ["text": out, "meta": report, "initMs": initMs], options: [.sortedKeys])
    try data.write(to: URL(fileURLWithPath: env["ECODEX_VISION_EVAL"]!))
}

/// CPU time of the calling thread: unlike wall time it does not count the
/// time other processes hold the shared cores.
func threadCPUms() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}
