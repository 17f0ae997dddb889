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

    @Test func aHolderWaitsUntilTheOthersLeaveRoom() async {
        let memory = PhotoMemory(capacity: 100)
        let waiting = DispatchSemaphore(value: 0)
        memory.onWait = { waiting.signal() }
        memory.acquire(60)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            memory.acquire(60)  // 120 > 100: waits for the first
            memory.release(60)
            done.signal()
        }
        waiting.wait()  // it is waiting now; it cannot finish before the release below
        memory.release(60)
        done.wait()
        // One larger than the whole budget runs alone rather than never.
        memory.acquire(500)
        memory.release(500)
    }
}
