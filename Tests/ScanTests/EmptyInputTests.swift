import Foundation
import Testing

/// Empty input gives one answer however it comes; a burst names each photo it skipped and why.
@Suite struct EmptyInputTests {
    let scan = ScanBinary()

    @Test(arguments: ["text", "json"])
    func emptyArgumentAndEmptyStandardInputAgree(_ format: String) throws {
        let argument = try scan.run(["text", "", "--format", format])
        let stdin = try scan.run(["text", "-", "--format", format], stdin: Data())
        let blank = try scan.run(["text", "-", "--format", format], stdin: Data(" \n\t\n".utf8))
        for run in [argument, stdin, blank] {
            #expect(run.status == 12, "\(run.stderr)")
            #expect(run.stderr.contains("No ingredient text was given") || run.stdout.contains("No ingredient text was given"),
                    "\(run.stdout)\(run.stderr)")
        }
        if format == "json" {
            let messages = [argument, stdin, blank].map { ($0.jsonLines().first?["error"] as? [String: Any])?["message"] as? String }
            #expect(Set(messages).count == 1 && messages.first != nil, "\(messages)")
        }
    }

    @Test func aBurstWithAMissingFrameSaysWhichAndWhy() throws {
        let missing = scan.dataDir.appendingPathComponent("frame-2.jpg").path
        let run = try scan.run(["burst", ScanBinary.path("samples/candy-label.jpg"), missing, "--format", "json"], timeout: 180)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.jsonLines().first?.codes.contains("E102") == true)
        #expect(run.stderr.contains("photo 2 (\(missing)) was skipped: No file at \(missing)."), "\(run.stderr)")
    }
}
