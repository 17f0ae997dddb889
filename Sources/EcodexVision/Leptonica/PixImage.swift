internal import CLeptonica

/// Owns one Leptonica `PIX`; the only place a `PIX` is destroyed.
///
/// Leptonica images are reference counted; every function that hands back a
/// new image gives us one reference, which this wrapper releases in `deinit`.
final class PixImage {
    let pointer: UnsafeMutablePointer<PIX>

    /// Takes ownership of `pointer`; nil when Leptonica returned NULL.
    init?(_ pointer: UnsafeMutablePointer<PIX>?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    deinit {
        var p: UnsafeMutablePointer<PIX>? = pointer
        pixDestroy(&p)
    }

    var width: Int { Int(pixGetWidth(pointer)) }
    var height: Int { Int(pixGetHeight(pointer)) }
    var depth: Int { Int(pixGetDepth(pointer)) }
    var pixelCount: Int { width * height }

    /// Runs a Leptonica function that returns a new image, failing with `what` for context.
    func map(_ what: String, _ body: (UnsafeMutablePointer<PIX>) -> UnsafeMutablePointer<PIX>?) throws -> PixImage {
        guard let result = PixImage(body(pointer)) else {
            throw VisionFailure.leptonica(what)
        }
        return result
    }

    /// The image as 8-bit gray bytes, row by row without padding.
    ///
    /// Leptonica packs pixels big-endian inside 32-bit words, so on a
    /// little-endian machine byte `x` of a row sits at address `x ^ 3`
    /// (Leptonica's `GET_DATA_BYTE`). Rows are `wpl` words apart.
    func grayBytes() -> [UInt8] {
        precondition(depth == 8, "grayBytes needs an 8 bpp image")
        let w = width, h = height
        let wpl = Int(pixGetWpl(pointer))
        guard let data = pixGetData(pointer) else { return [] }
        var out = [UInt8](repeating: 0, count: w * h)
        let swap = UInt32(1).littleEndian == UInt32(1) ? 3 : 0
        data.withMemoryRebound(to: UInt8.self, capacity: wpl * 4 * h) { bytes in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row = bytes + y * wpl * 4
                    let base = y * w
                    for x in 0..<w { dst[base + x] = row[x ^ swap] }
                }
            }
        }
        return out
    }
}

/// Internal failures inside the vision code, mapped to `ImageError` at the API edge.
enum VisionFailure: Error {
    case leptonica(String)
}
