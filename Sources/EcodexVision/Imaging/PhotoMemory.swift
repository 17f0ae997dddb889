import Foundation

/// The memory the photos of one process hold at once, kept at most `ImageLoader.maxDecodeBytes`:
/// each decode counts its bytes and each recognition `recognitionBytes`, and waits until the
/// others leave it room (one larger than the whole budget runs alone). A batch reads photos side
/// by side; without this, a large decode beside a recognition with every language loaded went
/// past the 300 MB a process may use (docs/reliability.md "Fuzzing").
///
/// Nobody may wait for room while holding some: a decode and a recognition never nest.
/// Engines are not counted (`SharedEngine` has its own budget), but a large decode first asks
/// the idle ones to go (`spare`): a large decode beside idle engines with every language loaded
/// was what went over. A recognition keeps them: the next photo needs them.
final class PhotoMemory: @unchecked Sendable {
    static let shared = PhotoMemory(capacity: ImageLoader.maxDecodeBytes)
    /// What one recognition counts: Tesseract's page images, its line crops and the retry's
    /// working memory. Two recognitions and a decode of up to a third of the budget fit together;
    /// a larger decode waits for a recognition to end, and a recognition for it.
    static let recognitionBytes = 40_000_000
    /// Decodes from this size up let idle engines go first and return their freed memory to the system.
    static let trimAbove = 32_000_000
    let capacity: Int
    private let condition = NSCondition()
    private var held = 0
    /// Told (holding the lock) each time a caller waits for room; tests use it.
    var onWait: (() -> Void)?
    private var spare: [Weak] = []

    init(capacity: Int) { self.capacity = capacity }

    /// Holds `bytes` once the others leave room; with `freeingIdle`, idle engines are let go first.
    func acquire(_ bytes: Int, freeingIdle: Bool = false) {
        let n = min(bytes, capacity)
        condition.lock()
        while held + n > capacity {
            onWait?()
            condition.wait()
        }
        held += n
        spare.removeAll { $0.holder == nil }
        let holders = freeingIdle ? spare.compactMap(\.holder) : []
        condition.unlock()
        guard !holders.isEmpty else { return }
        var freed = false
        for holder in holders { freed = holder.dropIdle() || freed }
        if freed { VisionLibraries.returnFreedMemory() }
    }

    /// Registers memory that can be let go while nobody uses it (held weakly; once per holder).
    func register(_ holder: any SpareMemory) {
        condition.lock(); defer { condition.unlock() }
        guard !spare.contains(where: { $0.holder === holder }) else { return }
        spare.append(Weak(holder: holder))
    }

    /// Gives back `bytes`. With `trim`, the memory they were freed into goes back to the system
    /// first: it sits in its thread's malloc arena, where another thread cannot reuse it.
    func release(_ bytes: Int, trim: Bool = false) {
        if trim { VisionLibraries.returnFreedMemory() }
        condition.lock()
        held -= min(bytes, capacity)
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` holding `bytes` (its idle engines kept), trimming after it as `release` does.
    func holding<T>(_ bytes: Int, trim: Bool, _ body: () throws -> T) rethrows -> T {
        acquire(bytes)
        defer { release(bytes, trim: trim) }
        return try body()
    }
}

/// Memory kept for later use that can be let go when a large photo needs room.
protocol SpareMemory: AnyObject {
    /// Lets go of what nobody uses now; true when something was freed.
    func dropIdle() -> Bool
}

private struct Weak {
    weak var holder: (any SpareMemory)?
}
