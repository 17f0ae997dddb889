/// Deconvolution of a gray image by a known blur, tile by tile through `FFT`: what `MotionBlur`
/// and `Defocus` share once each has measured its blur.
enum Wiener {
    /// Side of the tiles deconvolved at once, and the context margin on each side of one.
    static let tile = 512
    static let margin = 64

    /// `bytes` (`width`×`height`) multiplied in the frequency domain by `filter`, built once for the
    /// tile size. Tiles of at most `tile` pixels overlap by `margin` on each side, context only, so
    /// no tile edge shows in the result; the image is mirrored past its edges.
    static func deconvolved(_ bytes: [UInt8], width: Int, height: Int,
                            filter makeFilter: (FFT) -> (re: [Float], im: [Float])) -> [UInt8] {
        var n = 256
        while n < min(tile, max(width, height) + 2 * margin) { n *= 2 }
        let core = n - 2 * margin
        let fft = FFT(size: n)
        let filter = makeFilter(fft)
        var out = [UInt8](repeating: 0, count: width * height)
        var re = [Float](repeating: 0, count: n * n), im = re
        for ty in stride(from: 0, to: height, by: core) {
            for tx in stride(from: 0, to: width, by: core) {
                for j in 0..<n {
                    let row = MotionBlur.reflect(ty - margin + j, height) * width
                    for i in 0..<n { re[j * n + i] = Float(bytes[row + MotionBlur.reflect(tx - margin + i, width)]); im[j * n + i] = 0 }
                }
                fft.transform2D(&re, &im, inverse: false)
                for k in 0..<(n * n) {
                    let (a, b) = (re[k], im[k]), (c, d) = (filter.re[k], filter.im[k])
                    re[k] = a * c - b * d; im[k] = a * d + b * c
                }
                fft.transform2D(&re, &im, inverse: true)
                for y in ty..<min(height, ty + core) {
                    for x in tx..<min(width, tx + core) {
                        let v = re[(y - ty + margin) * n + (x - tx + margin)]
                        out[y * width + x] = UInt8(max(0, min(255, v.rounded())))
                    }
                }
            }
        }
        return out
    }
}
