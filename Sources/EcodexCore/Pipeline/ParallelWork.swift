import Dispatch
import Foundation

/// Items shared out to a few worker threads: each worker takes the next item nobody has
/// taken, so one slow item does not hold up the rest; results come back in input order.
/// Used by the readers of a batch (one OCR engine per worker) and by `scan bench`'s baseline.
public enum ParallelWork {
    /// `body(worker, index)` for every index below `count`, on `workers` threads (worker
    /// numbers `0..<workers`, each on one thread only: per-worker state is safe to use).
    public static func map<T>(count: Int, workers: Int, _ body: (_ worker: Int, _ index: Int) -> T) -> [T] {
        // No window: every item may be read before the first is taken.
        let slots = OrderedSlots<T>(count: count, ahead: max(1, count))
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let work = body
            DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { worker in
                while let i = slots.claim() { slots.set(i, work(worker, i)) }
            }
        }
        return (0..<count).map(slots.take)
    }

    /// `body(worker, index)` for every index below `count` on `workers` threads, as `map` does,
    /// and `each(index, result)` on the calling thread, in input order, as soon as that item and
    /// every item before it are done: a batch prints its first result when its first photo is
    /// read, not when the last one is. Workers run at most `ahead` items past the last one
    /// handed to `each`, so one slow item holds back at most that many finished results.
    public static func forEachInOrder<T>(count: Int, workers: Int, ahead: Int,
                                         _ body: @escaping (_ worker: Int, _ index: Int) -> T,
                                         each: (_ index: Int, T) -> Void) {
        guard count > 0 else { return }
        let threads = max(1, min(workers, count))
        let line = OrderedSlots<T>(count: count, ahead: max(threads, ahead))
        nonisolated(unsafe) let work = body
        let finished = DispatchGroup()
        for worker in 0..<threads {
            DispatchQueue.global().async(group: finished) {
                while let i = line.claim() { line.set(i, work(worker, i)) }
            }
        }
        for i in 0..<count { each(i, line.take(i)) }
        finished.wait()
    }

    /// Results handed on in input order; a worker waits before claiming an item too far ahead.
    private final class OrderedSlots<T>: @unchecked Sendable {
        private let ready = NSCondition()
        private let ahead: Int
        private var next = 0
        private var taken = 0
        private var slots: [T?]

        init(count: Int, ahead: Int) {
            slots = Array(repeating: nil, count: count)
            self.ahead = ahead
        }

        /// The next item nobody has taken, once it is within `ahead` of the caller; nil when all are taken.
        func claim() -> Int? {
            ready.lock(); defer { ready.unlock() }
            while next < slots.count && next >= taken + ahead { ready.wait() }
            guard next < slots.count else { return nil }
            next += 1
            return next - 1
        }

        func set(_ i: Int, _ value: T) {
            ready.lock(); defer { ready.unlock() }
            slots[i] = value
            ready.broadcast()
        }

        /// Item `i`'s result, waiting for it; its slot is emptied, so a long batch keeps only the window.
        func take(_ i: Int) -> T {
            ready.lock(); defer { ready.unlock() }
            while slots[i] == nil { ready.wait() }
            let value = slots[i]!
            slots[i] = nil
            taken = i + 1
            ready.broadcast()
            return value
        }
    }
}
