internal import CVisionLibs

/// Leptonica, Tesseract and ZBar are loaded when the first photo or barcode is read, not
/// linked: a `scan text` or `scan code` never maps them and their ~60 dependent libraries
/// (half of such a command's start-up). Every entry point that reaches them calls `ensure()`
/// first, so a machine without them gets an `ocr_error` with advice instead of a crash.
/// Loading also sets `OMP_THREAD_LIMIT=1` unless the environment sets it (see
/// `Sources/CVisionLibs/vision_libs.c`).
enum VisionLibraries {
    /// Loads them once per process; later calls only return the first outcome.
    static func ensure() throws { try outcome.get() }

    /// Hands the memory of freed engines back to the system (glibc's `malloc_trim`): without
    /// it, engines freed and started again fragment the heap and the process keeps growing.
    static func returnFreedMemory() { _ = ecx_return_freed_memory() }

    private static let outcome: Result<Void, OCRError> = {
        var reason = [CChar](repeating: 0, count: 512)
        guard ecx_vision_load(&reason, reason.count) != 0 else { return .success(()) }
        return .failure(.librariesMissing(detail: reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }))
    }()
}
