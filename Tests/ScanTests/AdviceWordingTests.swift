import Foundation
import Testing

/// Advice a user of an installed `scan` can follow: no guessed package, no repository script,
/// no Foundation sentence; a refused value shows the usage of the command that refused it.
@Suite struct AdviceWordingTests {
    let scan = ScanBinary()

    @Test func anUnknownLanguageNamesTheInstalledOnesNotAPackageOrScript() throws {
        let run = try scan.run([ScanBinary.path("samples/candy-label.jpg"), "--lang", "xyz"])
        #expect(run.status == 11, "\(run.stderr)")
        #expect(!run.stderr.contains("tesseract-ocr-xyz") && !run.stderr.contains("scripts/"), "\(run.stderr)")
        #expect(run.stderr.contains("--lang") && run.stderr.contains("eng"), "\(run.stderr)")
    }

    @Test func aBarcodePhotoOfflineNamesTheOnlineFlag() throws {
        let run = try scan.run([ScanBinary.path("samples/barcode-only.jpg")], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("barcode 4006381333931: Retry with --online"), "\(run.stderr)")
    }

    @Test func packValidateOutsideTheRepositorySaysWhatIsMissing() throws {
        let run = try scan.run(["pack", "validate"], wrapper: ["/usr/bin/env", "-C", scan.dataDir.path])
        #expect(run.status == 15, "\(run.stderr)")
        #expect(!run.stderr.contains("could not be completed"), "\(run.stderr)")
        #expect(run.stderr.contains("There is no pack source folder at \(scan.dataDir.path)/packs/base"), "\(run.stderr)")
    }

    @Test(arguments: [(["prefs", "set", "diet", "paleo"], "scan prefs set"), (["code", "E330", "--region", "Mars"], "scan code")])
    func aRefusedValueShowsItsCommandsUsage(_ arguments: [String], _ command: String) throws {
        let run = try scan.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains("Usage: \(command) ") && run.stderr.contains("See '\(command) --help'"), "\(run.stderr)")
        #expect(!run.stderr.contains("scan <subcommand>"), "\(run.stderr)")
    }
}
