import Foundation
import Testing
@testable import EcodexVision

/// `PhotoMemory`: photos of a batch take turns when together they would not fit, and a large
/// holder first lets idle engines go. A batch of a multilingual label and a large TIFF went
/// past the 300 MB bound without both (`DecodeBoundsTests` measures that through `scan`).
@Suite struct PhotoMemoryTests {
    final class Spare: SpareMemory, @unchecked Sendable {
        var idle = true
        var asked = 0
        func dropIdle() -> Bool { asked += 1; return idle }
    }

    /// A large decode lets idle engines go; a recognition keeps them for the next photo.
    @Test func aLargeDecodeLetsIdleEnginesGoAndARecognitionDoesNot() {
        let memory = PhotoMemory(capacity: 100_000_000)
        let spare = Spare()
        memory.register(spare)
        memory.register(spare)  // once per holder
        memory.holding(PhotoMemory.recognitionBytes, trim: true) { }
        #expect(spare.asked == 0)
        memory.acquire(PhotoMemory.trimAbove, freeingIdle: true)
        #expect(spare.asked == 1)
        memory.release(PhotoMemory.trimAbove)
    }

    /// A holder waits while the others leave too little room, and goes on once they leave; one
    /// larger than the whole budget runs alone. (A generous guard, not a time bound: without the
    /// wait the signal never comes and the test fails instead of hanging.)
    @Test func aHolderWaitsUntilTheOthersLeaveRoom() {
        let memory = PhotoMemory(capacity: 100)
        let waiting = DispatchSemaphore(value: 0)
        memory.onWait = { waiting.signal() }
        memory.acquire(60)
        let second = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            memory.acquire(60)  // 120 > 100: waits for the first
            second.signal()
            memory.release(60)
        }
        #expect(waiting.wait(timeout: .now() + 120) == .success, "the second holder never waited")
        #expect(second.wait(timeout: .now()) == .timedOut, "the second holder went on without room")
        memory.release(60)
        #expect(second.wait(timeout: .now() + 120) == .success, "the second holder never went on")
        let alone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            memory.acquire(500)
            memory.release(500)
            alone.signal()
        }
        #expect(alone.wait(timeout: .now() + 120) == .success, "a holder larger than the budget never ran")
    }
}
