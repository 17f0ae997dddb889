import EcodexCore
import Foundation

/// How a burst's frames are read when time is short: the first in full, as a single photo
/// (the one the shopper chose), then the others sharpest first (`FrameSharpness`), so the
/// frames the time limit leaves unread are the blurred ones, not the last ones given.
extension TesseractLabelReader {
    /// The burst's frames on every core: the first without a deadline, the others sharpest first
    /// until `seconds` from now (nil: every frame in full); results in input order. Words carry
    /// their photo boxes (every reading maps them), by which the burst aligns its frames.
    public func read(burstAt paths: [String], within seconds: Double?) -> [Result<OCRResult, Error>] {
        guard let seconds else { return read(imagesAt: paths) }
        // At most a day: a bigger number cannot overflow the clock and means no limit anyway.
        // Set before the frames are ranked: ranking is part of the time the burst takes.
        let deadline = now().uptimeNanoseconds + UInt64(min(max(0, seconds), 86_400) * 1e9)
        let order = burstOrder(paths)
        let read = all(order.map { paths[$0] }) { $0 == 0 ? nil : deadline }
        var results = [Result<OCRResult, Error>?](repeating: nil, count: paths.count)
        for (k, i) in order.enumerated() { results[i] = read[k] }
        return results.map { $0 ?? .failure(ScanError.noPhotoReadable) }
    }

    /// The order frames are read in: the first, then the others sharpest first (a frame that
    /// cannot be decoded last). Frames of one burst are measured only against each other.
    func burstOrder(_ paths: [String]) -> [Int] {
        guard paths.count > 2 else { return Array(paths.indices) }
        return [0] + FrameSharpness.sharpestFirst(sharpness(of: Array(paths.dropFirst()))).map { $0 + 1 }
    }

    /// Each frame's sharpness, measured on the cores this reader may use; nil for a frame
    /// that cannot be decoded (its reading reports why).
    func sharpness(of paths: [String]) -> [Double?] {
        ParallelWork.map(count: paths.count, workers: max(1, min(parallelism, Self.maxParallel))) { _, i in
            try? FrameSharpness.measure(imageAt: paths[i])
        }
    }
}
