import Dispatch
import Foundation

/// Items shared out to a few worker threads: each worker takes the next item nobody has
/// taken, so one slow item does not hold up the rest; results come back in input order.
/// Used by the readers of a batch (one OCR engine per worker) and by `scan bench`'s baseline.
public enum ParallelWork {
    /// `body(worker, index)` for every index below `count`, on `workers` threads (worker
    /// numbers `0..<workers`, each on one thread only: per-worker state is safe to use).
    public static func map<T>(count: Int, workers: Int, _ body: (_ worker: Int, _ index: Int) -> T) -> [T] {
        let slots = Slots<T>(count: count)
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let work = body
            DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { worker in
                while let i = slots.claim() { slots.set(i, work(worker, i)) }
            }
        }
        return slots.values
    }

    /// The items' results behind one lock.
    private final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var slots: [T?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        /// The index of the next item nobody has taken, or nil when all are taken.
        func claim() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < slots.count else { return nil }
            next += 1
            return next - 1
        }

        func set(_ i: Int, _ value: T) {
            lock.lock(); defer { lock.unlock() }
            slots[i] = value
        }

        /// Every item is set once `map`'s workers have returned.
        var values: [T] {
            lock.lock(); defer { lock.unlock() }
            return slots.map { $0! }
        }
    }
}
