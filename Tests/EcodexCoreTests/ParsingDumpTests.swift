import Foundation
import Testing
import EcodexCore

/// Prints what the parser finds in each line of a file, for looking at real labels by eye.
///
/// Runs only when `ECODEX_PARSE_DUMP` names a file:
/// `ECODEX_PARSE_DUMP=labels.txt swift test --filter parsingDump`.
@Test(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_PARSE_DUMP"] != nil))
func parsingDump() throws {
    let path = ProcessInfo.processInfo.environment["ECODEX_PARSE_DUMP"] ?? ""
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in text.split(separator: "\n") {
        let r = ParsingTestSupport.parser.parse(String(line))
        print("== \(line.prefix(200))")
        for m in r.mentions {
            let confidence = String(format: "%.2f", m.confidence)
            print("   \(m.code) \(m.kind) \(m.matchedText) function=\(m.function ?? "-") ingredient=\(m.ingredient ?? "-") confidence=\(confidence)")
        }
        if !r.unmatched.isEmpty { print("   unmatched \(r.unmatched)") }
    }
}
