import Foundation
import Testing
@testable import EcodexCore

/// Mutated photos through the `scan` binary: every run ends with a result or a
/// `capture_error` within 10 s of CPU time, under 300 MB, never a crash (issue 16's fuzz
/// criterion; CPU time, because wall time on a shared machine measures the neighbours, and
/// a hang is still killed at 60 s). Off by default
/// (each run starts the OCR engine): `ECODEX_FUZZ_IMAGES=1000` runs 1,000. Seeded, seed printed.
@Suite struct ImageFuzzTests {
    static let originals = ["samples/candy-label.jpg", "samples/barcode-only.jpg", "samples/carmine-label.jpg"]

    /// Flips, overwrites, truncates or splices the bytes, mostly near the header where decoders decide.
    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let near = Int.random(in: 0...1, using: &rng) == 0 ? min(b.count, 1024) : b.count
            guard near > 0 else { break }
            let at = Int.random(in: 0..<near, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: b[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: b[at] = [0x00, 0xFF, 0x7F, 0x80].randomElement(using: &rng)!
            case 2: b.removeSubrange(max(1, at)..<b.count)
            default: b.insert(contentsOf: b[at..<min(b.count, at + 64)], at: at)
            }
        }
        return b
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_FUZZ_IMAGES"] != nil))
    func mutatedPhotosEndInTimeWithinMemory() throws {
        let count = ProcessInfo.processInfo.environment["ECODEX_FUZZ_IMAGES"].flatMap(Int.init) ?? 0
        var rng = SplitMix64(seed: SplitMix64.seed("image fuzz"))
        let scan = ScanBinary()
        let originals = try Self.originals.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: ScanBinary.path($0)))) }
        var worst = 0.0, slowest = 0.0
        for i in 0..<count {
            let file = scan.dataDir.appendingPathComponent("fuzz-\(i % 4).img")
            try Data(Self.mutate(originals[i % originals.count], &rng)).write(to: file)
            let run = try scan.run([file.path, "--format", "json"], environment: ["OMP_THREAD_LIMIT": "1"], timeout: 60,
                                   wrapper: ["/usr/bin/time", "-f", "%M %U %S"])
            #expect([0, 10].contains(run.status), "mutation \(i): exit \(run.status) \(run.stderr.suffix(300))")
            // /usr/bin/time's last line: peak KB, user and system CPU seconds.
            let fields = run.stderr.split(separator: "\n").last?.split(separator: " ").compactMap { Double($0) } ?? []
            let (peak, cpu) = fields.count == 3 ? (fields[0] / 1024, fields[1] + fields[2]) : (.infinity, .infinity)
            worst = max(worst, peak)
            slowest = max(slowest, cpu)
            #expect(peak < 300, "mutation \(i): peak \(peak) MB")
            #expect(cpu < 10, "mutation \(i): \(cpu) s of CPU")
        }
        print("image fuzz: \(count) mutated photos, worst peak \(Int(worst)) MB, most CPU \(slowest) s")
    }
}
