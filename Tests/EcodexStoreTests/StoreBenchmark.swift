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
        let openCPU = try measure(batches: 20) {
            let store = try AdditiveStore(location: location, basePackURL: packURL)
            _ = try store.additive(code: pack.additives[0].code)
        }

        let store = try AdditiveStore(location: location, basePackURL: packURL)
        let codes = pack.additives.map(\.code)
        let names = pack.additives.map(\.canonicalName)
        // Misspell each name: swap two letters in the middle.
        let misspelled = pack.additives.filter { $0.canonicalName.count >= 6 }.map { a -> (String, ECode) in
            var c = Array(a.canonicalName)
            c.swapAt(c.count / 2, c.count / 2 + 1)
            return (String(c), a.code)
        }

        // Fresh store: every code's first lookup reads SQLite and decodes the JSON record.
        let fresh = try AdditiveStore(location: location, basePackURL: packURL)
        let coldCode = try measure(batches: 1) { for code in codes { _ = try fresh.additive(code: code) } } / Double(codes.count)
        for code in codes { _ = try store.additive(code: code) }
        let sqlCode = try measure { for code in codes { _ = try store.recordJSON(code) } } / Double(codes.count)
        let warmCode = try measure { for code in codes { _ = try store.additive(code: code) } } / Double(codes.count)
        let exact = try measure { for name in names { _ = try store.lookup(name: name) } } / Double(names.count)
        let fuzzy = try measure(batches: 5) {
            for (name, _) in misspelled { _ = try store.search(name, limit: 5) }
        } / Double(max(1, misspelled.count))
        let lexicon = try measure(batches: 1) { _ = try store.lexicon() }

        let user = try UserStore(location: location)
        try user.cacheProduct(CachedProduct(barcode: "4006381333931", ingredientsText: "Sugar, E102", additivesFound: [], region: .eu))
        let cache = try measure { for _ in 0..<100 { _ = try user.cachedProduct(barcode: "4006381333931") } } / 100

        var found = 0
        for (name, code) in misspelled where try store.search(name, limit: 1).first?.code == code { found += 1 }
        let typos = misspelled

        print("""
            store benchmark (CPU time per operation, best of several batches): \(pack.additives.count) additives, \(try store.lexicon().entries.count) names, file \(size / 1024) KiB, build \(String(format: "%.1f", buildMs)) ms
              open + first query   \(us(openCPU)) µs CPU (wall median \(us(openTimes.sorted()[openTimes.count / 2])) µs)
              code, SQLite only    \(us(sqlCode)) µs (statement step, record text)
              code, first time     \(us(coldCode)) µs (SQLite + JSON decode)
              code, repeated       \(us(warmCode)) µs (decoded-record cache)
              exact name           \(us(exact)) µs
              fuzzy top-5          \(us(fuzzy)) µs (typo found first: \(found)/\(typos.count))
              lexicon (once)       \(us(lexicon)) µs
              product cache        \(us(cache)) µs
            """)
    }

    /// CPU seconds of this thread for one run of `body`: the least over `batches` runs.
    /// CPU time, not wall time, because these machines are shared and a
    /// preempted batch would otherwise count the other jobs' time.
    private func measure(batches: Int = 15, _ body: () throws -> Void) throws -> Double {
        var best = Double.infinity
        for _ in 0..<batches {
            let start = cpu()
            try body()
            best = min(best, cpu() - start)
        }
        return best
    }

    private func cpu() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
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
