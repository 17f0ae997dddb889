import Foundation
import Testing
@testable import EcodexBench

/// The gold set's strong-blur and tight-cylinder conditions: present at the strength the
/// generator promises, hard tier only, and outside the fast subset and the moderate gates.
@Suite struct GoldSetHardTierTests {
    static let goldset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("goldset").path

    /// The truth lines of one condition, as JSON objects (their `params` hold the strength).
    static func lines(_ condition: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: goldset + "/truth.jsonl", encoding: .utf8)
        return try text.split(separator: "\n").compactMap { raw in
            let line = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
            return (line["conditions"] as? [String])?.first == condition ? line : nil
        }
    }

    @Test(arguments: ["blur_strong", "curved_tight"])
    func conditionIsInTheHardTierOnly(_ condition: String) throws {
        let items = try GoldSet.load(folder: Self.goldset).filter { $0.conditions.first == condition }
        #expect(items.count == 42)
        #expect(items.allSatisfy { !$0.isModerate && !$0.truth.isEmpty })
        #expect(items.allSatisfy { FileManager.default.fileExists(atPath: Self.goldset + "/" + $0.file) },
                "images missing: run goldset/generate.py render")
    }

    @Test func blurIsAShareOfTheLetterHeight() throws {
        let lines = try Self.lines("blur_strong")
        #expect(lines.count == 42)
        for line in lines {
            let p = try #require(line["params"] as? [String: Any])
            let letter = try #require(p["letter_px"] as? Double), share = try #require(p["blur_frac"] as? Double)
            if p["blur_kind"] as? String == "gaussian" {
                // Gaussian sigma 10-15 % of the letter height.
                #expect((0.10...0.15).contains(share))
                #expect(abs(try #require(p["blur"] as? Double) - share * letter) < 0.01)
            } else {
                // An even streak of half to two-thirds of the letter height (odd pixel count, +-1 px).
                #expect((0.5...0.667).contains(share))
                #expect(abs(Double(try #require(p["streak"] as? Int)) - share * letter) <= 1.0)
            }
        }
        #expect(lines.filter { ($0["params"] as? [String: Any])?["blur_kind"] as? String == "motion" }.count >= 15)
    }

    @Test func cylinderSpansEightyToOneHundredSixteenDegrees() throws {
        let spans = try Self.lines("curved_tight").compactMap { ($0["params"] as? [String: Any])?["span"] as? Int }
        #expect(spans.count == 42)
        #expect(spans.allSatisfy { (80...116).contains($0) })
    }

    @Test func fastSubsetLeavesThemOut() throws {
        let fast = GoldSet.select(try GoldSet.load(folder: Self.goldset), .init(fast: true))
        #expect(fast.count == 26)
        #expect(!fast.contains { $0.conditions.contains("blur_strong") || $0.conditions.contains("curved_tight") })
    }
}
