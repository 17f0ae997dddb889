import Foundation
import Testing

/// Each rescan prompt's cause, through the built `scan` with real Tesseract: a photo that shows
/// the fault gets a prompt naming it (JSON code, and the words in text and HTML), and a clean,
/// fully read photo gets none. The fault photos are made from a clean label of ours
/// (Tests/EcodexVisionTests/Fixtures/README.md); small print is a gold-set phone frame.
@Suite struct PromptCauseTests {
    let scan = ScanBinary()

    static func fixture(_ name: String) -> String { ScanBinary.path("Tests/EcodexVisionTests/Fixtures/prompts/\(name)") }
    static let clean = ScanBinary.path("goldset/synth/g0101.jpg")

    /// The rescan codes of a result (the causes and the generic prompt).
    static let rescanCodes: Set<String> = ["hard-to-read", "print-too-small", "blurred", "glare", "curved-text", "too-dark"]

    static func codes(_ line: [String: Any]) -> [String] {
        ((line["warnings"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String }
    }

    @Test(arguments: [
        (fixture("blurred.jpg"), "blurred", "The photo is blurred. Hold the phone still"),
        (fixture("glare.jpg"), "glare", "Light shining off the package hides some of the print."),
        (fixture("curved.jpg"), "curved-text", "The text runs round a curve. Turn the package"),
        (fixture("dark.jpg"), "too-dark", "The photo is too dark to read."),
        (ScanBinary.path("goldset/synth/g0570.jpg"), "print-too-small", "The print is too small in this photo."),
    ])
    func aPhotoShowingTheFaultIsToldItsCause(_ photo: String, _ code: String, _ words: String) throws {
        let run = try scan.run([photo, "--region", "EU", "--format", "json"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.jsonLines().first)
        let prompts = Self.codes(line).filter(Self.rescanCodes.contains)
        #expect(prompts == [code], "\(photo): \(Self.codes(line)), capture \((line["ocr"] as? [String: Any])?["capture"] ?? "none")")
        // The terminal wraps long notes: compare with the line breaks taken out.
        let text = try scan.run([photo, "--region", "EU"], timeout: 120)
        #expect(text.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(words), "\(text.stdout)")
    }

    /// A clean label read in full gets no prompt, and its capture measures say why: bright,
    /// no glare, sharp, straight lines.
    @Test func aCleanFullyReadPhotoGetsNoPrompt() throws {
        let run = try scan.run([Self.clean, "--region", "EU", "--format", "json"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.jsonLines().first)
        #expect(Self.codes(line).filter(Self.rescanCodes.contains).isEmpty, "\(Self.codes(line))")
        let capture = try #require((line["ocr"] as? [String: Any])?["capture"] as? [String: Any])
        #expect((capture["brightness"] as? Double).map { $0 > 150 } == true, "\(capture)")
        #expect((capture["glare"] as? Double).map { $0 < 0.05 } == true, "\(capture)")
        #expect((capture["blur"] as? Double).map { $0 < 0.2 } == true, "\(capture)")
        #expect((capture["curve"] as? Double).map { $0 < 0.3 } == true, "\(capture)")
    }

    /// The HTML page shows the cause in words too.
    @Test func theHTMLPageNamesTheCause() throws {
        let run = try scan.run([Self.fixture("blurred.jpg"), "--region", "EU", "--format", "html"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("The photo is blurred. Hold the phone still"), "\(run.stdout.prefix(400))")
    }
}
