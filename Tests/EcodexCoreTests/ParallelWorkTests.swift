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

/// A batch hands each result on as soon as it and those before it are done (`scan a.jpg b.jpg …`
/// prints as it goes), in input order, on the calling thread, without running far ahead.
@Suite struct InOrderWorkTests {
    @Test func theFirstResultIsHandedOnBeforeTheLastItemIsDone() {
        let firstHandedOn = DispatchSemaphore(value: 0)
        let waitedInVain = Calls()
        var order: [Int] = []
        ParallelWork.forEachInOrder(count: 6, workers: 2, ahead: 8, { _, i in
            // The last item finishes only once item 0 has been handed on (or after 20 s, a failure).
            if i == 5, firstHandedOn.wait(timeout: .now() + 20) == .timedOut { waitedInVain.add(i) }
            return i * 10
        }, each: { i, value in
            #expect(value == i * 10)
            order.append(i)
            if i == 0 { firstHandedOn.signal() }
        })
        #expect(order == Array(0..<6))
        #expect(waitedInVain.sorted.isEmpty, "item 0 was held back until the last item was done")
    }

    @Test func workersStayWithinTheWindow() {
        let started = Calls()
        let handedOn = Calls()
        let window = 3
        ParallelWork.forEachInOrder(count: 40, workers: 2, ahead: window, { _, i in
            started.add(i)
            // Started items never run more than the window past those handed on (plus the one
            // being handed on right now, which counts as taken before `each` notes it).
            #expect(i < handedOn.sorted.count + 1 + window)
            usleep(200)
            return i
        }, each: { i, _ in handedOn.add(i) })
        #expect(started.sorted == Array(0..<40))
        #expect(handedOn.sorted == Array(0..<40))
    }

    @Test func oneWorkerAndNothingToDo() {
        var got: [Int] = []
        ParallelWork.forEachInOrder(count: 5, workers: 1, ahead: 1, { _, i in i }, each: { _, v in got.append(v) })
        #expect(got == [0, 1, 2, 3, 4])
        ParallelWork.forEachInOrder(count: 0, workers: 2, ahead: 4, { _, i in i }, each: { _, _ in Issue.record("nothing to hand on") })
    }
}
