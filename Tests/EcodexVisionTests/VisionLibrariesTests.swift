import Foundation
import Testing
@testable import EcodexVision

/// Leptonica, Tesseract and ZBar are loaded on first use (`VisionLibraries`), not linked.
@Suite struct VisionLibrariesTests {
    /// libgomp reads OMP_THREAD_LIMIT only when it loads; the loader sets it first, so one
    /// Tesseract engine never starts an OpenMP team (3-8x slower on small machines). This
    /// test process does not set it (scripts/test.sh leaves it to the loader).
    @Test func tesseractRunsOneThreadPerEngine() throws {
        try VisionLibraries.ensure()
        let gomp = try #require(dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD), "libgomp was not loaded with Tesseract")
        defer { dlclose(gomp) }
        typealias Limit = @convention(c) () -> Int32
        let symbol = try #require(dlsym(gomp, "omp_get_thread_limit"))
        let limit = unsafeBitCast(symbol, to: Limit.self)()
        let asked = ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"].flatMap { Int32($0) }
        #expect(limit == (asked ?? 1))
        #expect(getenv("OMP_THREAD_LIMIT").map { String(cString: $0) } == String(asked ?? 1))
    }

    @Test func loadingTwiceIsHarmlessAndAPhotoReadsAfterIt() throws {
        try VisionLibraries.ensure()
        try VisionLibraries.ensure()
        let pix = try ImageLoader.load(Fixtures.packageRoot + "/samples/candy-label.jpg")
        #expect(pix.width > 100 && pix.height > 100)
    }
}
