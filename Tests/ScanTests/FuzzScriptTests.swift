import EcodexCore
import Foundation
import Testing

/// `scripts/fuzz.py` against the built `scan`: mutated ingredient texts through `scan text
/// --jsonl -` (and a few alone through `scan text -`) and mutated photos through `scan
/// PHOTO... --format json`; no crash, no input over 10 s of CPU, no process over 300 MB, only
/// documented error classes and exit codes. A small run by default;
/// `ECODEX_FUZZ_TEXTS=100000 ECODEX_FUZZ_IMAGES=1000` for the long one (or run the script on the
/// release build, docs/reliability.md "Fuzzing"). Seeded, seed printed (`ECODEX_TEST_SEED` replays).
@Suite struct FuzzScriptTests {
    @Test func mutatedTextsAndPhotosEndInTimeWithinMemory() throws {
        let env = ProcessInfo.processInfo.environment
        let texts = env["ECODEX_FUZZ_TEXTS"].flatMap(Int.init) ?? 1000
        let images = env["ECODEX_FUZZ_IMAGES"].flatMap(Int.init) ?? 20
        let seed = SplitMix64.seed("fuzz") >> 1   // the script takes a non-negative 63-bit seed
        let (status, output) = try ScanBinary.python("scripts/fuzz.py", [
            "--scan", ScanBinary.executable.path,
            "--texts", "\(texts)", "--images", "\(images)", "--seed", "\(seed)", "--synth", "4",
            // The bound. (Photos read block by block used to reach 320-333 MB with the
            // Latin model's word list and the English engine both loaded: docs/reliability.md "Fuzzing".)
            "--max-mb", env["ECODEX_FUZZ_MAX_MB"] ?? "300"])
        print(output)
        #expect(status == 0, "\(output.suffix(3000))")
        #expect(output.contains("texts: \(texts) inputs") && output.contains("photos: \(images) inputs"), "\(output.suffix(2000))")
    }
}
