import Foundation
import Testing
import EcodexCore

@Test func parsingDebugDump() {
    guard let path = ProcessInfo.processInfo.environment["ECODEX_PARSE_DEBUG"] else { return }
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
        let r = ParsingTestSupport.parser.parse(String(line))
        print("== \(line.prefix(200))")
        for m in r.mentions {
            print("   \(m.code) \(m.kind) \(m.matchedText) f=\(m.function ?? "-") ing=\(m.ingredient ?? "-") c=\(String(format: "%.2f", m.confidence))")
        }
        if !r.unmatched.isEmpty { print("   unmatched \(r.unmatched)") }
    }
}
