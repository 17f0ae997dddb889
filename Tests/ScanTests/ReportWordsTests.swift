import Foundation
import Testing

/// The words a shopper reads on a result: counts in the cards' own badge words, and who an
/// additive is of note for, in plain words.
@Suite struct ReportWordsTests {
    let scan = ScanBinary()

    @Test func headlineCountsTheBadgesTheCardsShow() throws {
        let run = try scan.run(["text", "Sugar, sorbitol, colours: E102, E129, acid: E330", "--region", "EU"])
        #expect(run.status == 0, "\(run.stderr)")
        let first = run.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let counts = ["RED", "YELLOW", "GREEN"].map { badge in
            "\(run.stdout.components(separatedBy: " \(badge)] ").count - 1) \(badge.lowercased())"
        }
        #expect(counts != ["0 red", "0 yellow", "0 green"])
        #expect(first == "text: " + counts.joined(separator: ", "), "\(run.stdout)")
        #expect(!run.stdout.contains("flagged") && !run.stdout.contains("neutral"))
        let html = try scan.run(["text", "Sugar, sorbitol, colours: E102, E129, acid: E330", "--region", "EU", "--format", "html"])
        #expect(html.stdout.contains(counts.joined(separator: ", ")))
    }

    /// The region's own rule leads a card's references, and the record's copy of the same
    /// text (without the provision) is not listed a second time.
    @Test func aCardNamesEachReferenceOnce() throws {
        for region in ["EU", "US", "UK", "CA", "AU", "IN"] {
            let run = try scan.run(["text", "E102, E330, E951, E211", "--region", region, "--format", "json"])
            #expect(run.status == 0, "\(run.stderr)")
            for card in run.jsonLines().first?["additives"] as? [[String: Any]] ?? [] {
                let refs = (card["references"] as? [[String: Any]] ?? []).map { "\($0["label"] ?? "") <\($0["url"] ?? "")>" }
                #expect(!refs.isEmpty)
                #expect(Set(refs).count == refs.count, "\(region) \(card["code"] ?? ""): \(refs)")
            }
        }
    }

    @Test func audienceIsNamedInPlainWords() throws {
        for format in ["text", "html"] {
            let run = try scan.run(["text", "Sugar, sorbitol, E102, E220, aspartame", "--region", "EU", "--format", format])
            #expect(run.status == 0, "\(run.stderr)")
            for words in ["Of note for: children", "Of note for: people sensitive to sugar alcohols",
                          "Of note for: people sensitive to sulphites", "Of note for: people with PKU"] {
                #expect(run.stdout.contains(words), "\(format) lacks \(words)")
            }
            #expect(!run.stdout.contains("For: Kids") && !run.stdout.contains("Polyols"))
        }
    }
}
