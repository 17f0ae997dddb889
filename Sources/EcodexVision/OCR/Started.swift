import Foundation

/// A value made on another thread, so the caller can do other work until it needs it.
///
/// Tesseract takes about a tenth of a second to load its model; the reader starts it here
/// while the calling thread decodes and prepares the photo, on the machine's other core.
final class Started<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Value, Error>?

    init(_ make: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            let made = Result(catching: make)
            condition.lock()
            result = made
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The value, waiting for it when it is not made yet; rethrows what making it threw.
    func get() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result!.get()
    }
}
