import Foundation
import Testing
@testable import EcodexCore

/// Items shared out to worker threads (a batch's OCR engines, the bench's baseline).
@Suite struct ParallelWorkTests {
    @Test func everyItemOnceAndResultsInInputOrder() {
        let calls = Calls()
        let out = ParallelWork.map(count: 500, workers: 3) { _, i in
            calls.add(i)
            return i * 2
        }
        #expect(out == (0..<500).map { $0 * 2 })
        #expect(calls.sorted == Array(0..<500))
    }

    /// A worker number is one thread's at a time, so a worker's own engine is never shared.
    @Test func eachWorkerRunsOnOneThread() {
        let seen = Calls()
        _ = ParallelWork.map(count: 200, workers: 2) { worker, _ in
            seen.note(worker: worker, thread: pthread_self())
            return 0
        }
        #expect(seen.threadsPerWorker.allSatisfy { $0 == 1 })
        #expect(!seen.threadsPerWorker.isEmpty)
    }

    @Test func nothingToDoIsEmpty() {
        #expect(ParallelWork.map(count: 0, workers: 2) { _, i in i }.isEmpty)
    }
}

private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    private var threads: [Int: Set<UInt>] = [:]
    func add(_ i: Int) { lock.lock(); items.append(i); lock.unlock() }
    func note(worker: Int, thread: pthread_t) {
        lock.lock(); threads[worker, default: []].insert(UInt(thread)); lock.unlock()
    }
    var sorted: [Int] { lock.lock(); defer { lock.unlock() }; return items.sorted() }
    var threadsPerWorker: [Int] { lock.lock(); defer { lock.unlock() }; return threads.values.map(\.count) }
}
