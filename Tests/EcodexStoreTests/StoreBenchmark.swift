import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Prints lookup timings for the README. Not an asserting test (shared CI
/// machines are too noisy for that): run with
/// `ECODEX_STORE_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter StoreBenchmark`.
/// Uses the pack bundled with the program, or the built pack named by
/// `ECODEX_STORE_BENCH_PACK` when set.
@Suite struct StoreBenchmark {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_STORE_BENCH"] != nil))
    func lookupTimings() throws {
        let scratch = try Fixtures.Scratch()
        let location = scratch.location
        let env = ProcessInfo.processInfo.environment
        let packURL = try #require(env["ECODEX_STORE_BENCH_PACK"].map(URL.init(fileURLWithPath:)) ?? AdditiveStore.bundledBasePackURL)
        let pack = try Pack.read(from: packURL)
        try #require(!pack.additives.isEmpty, "the benchmark needs a pack with records")

        var t = now()
        try AdditiveStore.rebuild(location: location, basePackURL: packURL)
        let buildMs = (now() - t) * 1000
        let size = (try FileManager.default.attributesOfItem(atPath: location.additivesPath.path)[.size] as? NSNumber)?.intValue ?? 0

        // Open + first query, cold process-wise for this file (the OS page cache is warm after the build).
        var openTimes: [Double] = []
        for _ in 0..<20 {
            t = now()
            let store = try AdditiveStore(location: location, basePackURL: packURL)
            _ = try store.additive(code: pack.additives[0].code)
            openTimes.append(now() - t)
        }

        let store = try AdditiveStore(location: location, basePackURL: packURL)
        let codes = pack.additives.map(\.code)
        let names = pack.additives.map(\.canonicalName)
        // Misspell each name: swap two letters in the middle.
        let typos = names.filter { $0.count >= 6 }.map { name -> String in
            var c = Array(name)
            c.swapAt(c.count / 2, c.count / 2 + 1)
            return String(c)
        }

        // Fresh store: every code's first lookup reads SQLite and decodes the JSON record.
        let fresh = try AdditiveStore(location: location, basePackURL: packURL)
        t = now()
        for code in codes { _ = try fresh.additive(code: code) }
        let coldCode = (now() - t) / Double(codes.count)

        let rounds = 20
        t = now()
        for _ in 0..<rounds { for code in codes { _ = try store.recordJSON(code) } }
        let sqlCode = (now() - t) / Double(rounds * codes.count)

        t = now()
        for _ in 0..<rounds { for code in codes { _ = try store.additive(code: code) } }
        let warmCode = (now() - t) / Double(rounds * codes.count)

        t = now()
        for _ in 0..<rounds { for name in names { _ = try store.lookup(name: name) } }
        let exact = (now() - t) / Double(rounds * names.count)

        t = now()
        for _ in 0..<rounds { for name in typos { _ = try store.search(name, limit: 5) } }
        let fuzzy = (now() - t) / Double(rounds * max(1, typos.count))

        t = now()
        _ = try store.lexicon()
        let lexicon = now() - t

        let user = try UserStore(location: location)
        try user.cacheProduct(CachedProduct(barcode: "4006381333931", ingredientsText: "Sugar, E102", additivesFound: [], region: .eu))
        t = now()
        for _ in 0..<1000 { _ = try user.cachedProduct(barcode: "4006381333931") }
        let cache = (now() - t) / 1000

        var found = 0
        for (name, code) in zip(typos, pack.additives.filter { $0.canonicalName.count >= 6 }.map(\.code)) {
            if try store.search(name, limit: 1).first?.code == code { found += 1 }
        }

        print("""
            store benchmark: \(pack.additives.count) additives, file \(size / 1024) KiB, build \(String(format: "%.1f", buildMs)) ms
              open + first query   median \(us(openTimes.sorted()[openTimes.count / 2])) µs
              code, SQLite only    \(us(sqlCode)) µs (statement step, record text)
              code, first time     \(us(coldCode)) µs (SQLite + JSON decode)
              code, repeated       \(us(warmCode)) µs (decoded-record cache)
              exact name           \(us(exact)) µs
              fuzzy top-5          \(us(fuzzy)) µs (typo found first: \(found)/\(typos.count))
              lexicon (once)       \(us(lexicon)) µs
              product cache        \(us(cache)) µs
            """)
    }

    private func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private func us(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1e6) }
}

/// Writes the fixture pack as a built pack when `ECODEX_WRITE_FIXTURE_PACK` names a path:
/// how the placeholder `Resources/base-pack.json` was made.
@Test(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_WRITE_FIXTURE_PACK"] != nil))
func writeFixturePack() throws {
    let path = try #require(ProcessInfo.processInfo.environment["ECODEX_WRITE_FIXTURE_PACK"])
    try Fixtures.pack().write(to: URL(fileURLWithPath: path))
}
