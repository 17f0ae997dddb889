import EcodexCore
import Foundation

/// How a burst's frames are read.
extension TesseractLabelReader {
    /// The burst's frames on every core: the first without a deadline, the others until
    /// `seconds` from now (nil: every frame in full). Words carry their photo boxes, by which
    /// the burst aligns its frames.
    public func read(burstAt paths: [String], within seconds: Double?) -> [Result<OCRResult, Error>] {
        mapsWords = true
        defer { mapsWords = false }
        guard let seconds else { return read(imagesAt: paths) }
        // At most a day: a bigger number cannot overflow the clock and means no limit anyway.
        let deadline = now().uptimeNanoseconds + UInt64(min(max(0, seconds), 86_400) * 1e9)
        return all(paths) { $0 == 0 ? nil : deadline }
    }
}
