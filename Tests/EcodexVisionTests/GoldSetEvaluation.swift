import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// Runs the reader over every photo in goldset/real and writes the text per
/// file as JSON, for scoring preprocessing choices outside the test suite.
///
/// Off unless `ECODEX_VISION_EVAL` names the output file. Knobs:
/// `ECODEX_VISION_OFF` (comma list of steps to disable: channel, rescale,
/// invert, normalize, deskew), `ECODEX_VISION_LANGS` (e.g. `eng+deu`),
/// `ECODEX_VISION_TARGET` (target text height), `ECODEX_VISION_PSM`.
@Test(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_VISION_EVAL"] != nil))
func goldSetEvaluation() throws {
    let env = ProcessInfo.processInfo.environment
    let off = Set((env["ECODEX_VISION_OFF"] ?? "").split(separator: ",").map(String.init))
    var options = PreprocessOptions()
    options.bestChannel = !off.contains("channel")
    options.rescale = !off.contains("rescale")
    options.invert = !off.contains("invert")
    options.normalizeBackground = !off.contains("normalize")
    options.deskew = !off.contains("deskew")
    if let t = env["ECODEX_VISION_TARGET"].flatMap(Double.init) { options.targetTextHeight = t }
    let languages = env["ECODEX_VISION_LANGS"].map { $0.split(separator: "+").map(String.init) } ?? ["eng"]
    let t0 = Date()
    let reader = try TesseractLabelReader(languages: languages, dataPath: nil, options: options)
    let initMs = Date().timeIntervalSince(t0) * 1000

    let folder = Fixtures.goldsetReal
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
    var out: [String: String] = [:]
    var report: [String: [String: String]] = [:]
    for f in files {
        let r = try reader.read(imageAt: folder + "/" + f)
        out[f] = r.text
        report[f] = ["steps": r.steps.joined(separator: ", "),
                     "preprocessMs": String(format: "%.0f", r.preprocessMs),
                     "ocrMs": String(format: "%.0f", r.ocrMs),
                     "conf": String(format: "%.1f", r.meanConfidence)]
    }
    let data = try JSONSerialization.data(withJSONObject: ["text": out, "meta": report, "initMs": initMs], options: [.sortedKeys])
    try data.write(to: URL(fileURLWithPath: env["ECODEX_VISION_EVAL"]!))
}
