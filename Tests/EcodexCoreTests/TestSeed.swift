import Foundation
@testable import EcodexCore

/// A seeded generator for property and fuzz tests: EcodexCore's SplitMix64, seeded so a
/// failing case can be replayed. (EcodexStoreTests and ScanTests link this file too.)
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// The seed for a test run: `ECODEX_TEST_SEED` when set (to replay), else a fresh one. Printed.
    static func seed(_ name: String) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment["ECODEX_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
        print("\(name): seed \(seed) (replay with ECODEX_TEST_SEED=\(seed))")
        return seed
    }
}
