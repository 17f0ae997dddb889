import Foundation
import Testing

/// `scan` on a label photographed out of focus: the print is sharpened before it is read.
@Suite struct OutOfFocusLabelTests {
    let scan = ScanBinary()

    /// Gold `g0620` (σ 15 % of the letter height): read as it was, none of its five codes came through.
    @Test func aLabelOutOfFocusReadsItsCodes() throws {
        let run = try scan.run([ScanBinary.path("goldset/synth/g0620.jpg"), "--region", "EU", "--format", "json"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let r = try #require(run.jsonLines().first)
        let steps = (r["preprocessing"] as? [String]) ?? []
        #expect(steps.contains { $0.hasPrefix("undo defocus") }, "\(steps)")
        let truth: Set = ["E321", "E392", "E452", "E472c", "E475"]
        #expect(Set(r.codes).intersection(truth).count >= 3, "codes: \(r.codes)")
        #expect(Set(r.codes).subtracting(truth).count <= 1, "codes: \(r.codes)")
    }
}
