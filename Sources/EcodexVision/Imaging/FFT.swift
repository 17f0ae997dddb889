import Foundation

/// A radix-2 complex Fourier transform of square power-of-two tiles, in place on split
/// real/imaginary `Float` buffers: what the motion-blur measure and its deconvolution need.
struct FFT {
    /// Side of the tiles this transform takes (a power of two).
    let size: Int
    private let cosines: [Float], sines: [Float]
    private let reversed: [Int]

    init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        cosines = (0..<size / 2).map { Float(cos(2 * Double.pi * Double($0) / Double(size))) }
        sines = (0..<size / 2).map { Float(sin(2 * Double.pi * Double($0) / Double(size))) }
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { i in
            (0..<bits).reduce(0) { r, b in i & (1 << b) != 0 ? r | 1 << (bits - 1 - b) : r }
        }
    }

    /// Transforms a `size`×`size` tile (row by row) in place; `inverse` also divides by the pixel count.
    func transform2D(_ re: inout [Float], _ im: inout [Float], inverse: Bool) {
        let n = size
        precondition(re.count == n * n && im.count == n * n)
        var colRe = [Float](repeating: 0, count: n), colIm = [Float](repeating: 0, count: n)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                for y in 0..<n { line(r.baseAddress! + y * n, i.baseAddress! + y * n, inverse: inverse) }
                colRe.withUnsafeMutableBufferPointer { cr in
                    colIm.withUnsafeMutableBufferPointer { ci in
                        for x in 0..<n {
                            for y in 0..<n { cr[y] = r[y * n + x]; ci[y] = i[y * n + x] }
                            line(cr.baseAddress!, ci.baseAddress!, inverse: inverse)
                            for y in 0..<n { r[y * n + x] = cr[y]; i[y * n + x] = ci[y] }
                        }
                    }
                }
                if inverse {
                    let scale = 1 / Float(n * n)
                    for k in 0..<(n * n) { r[k] *= scale; i[k] *= scale }
                }
            }
        }
    }

    /// One line of `size` values, iterative Cooley-Tukey (bit-reversed order, then butterflies).
    private func line(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, inverse: Bool) {
        let n = size
        for i in 0..<n {
            let j = reversed[i]
            if j > i { swap(&re[i], &re[j]); swap(&im[i], &im[j]) }
        }
        let sign: Float = inverse ? 1 : -1
        var half = 1
        cosines.withUnsafeBufferPointer { cs in
            sines.withUnsafeBufferPointer { sn in
                while half < n {
                    let step = n / (half * 2)
                    var start = 0
                    while start < n {
                        for k in 0..<half {
                            let wr = cs[k * step], wi = sign * sn[k * step]
                            let a = start + k, b = a + half
                            let tr = re[b] * wr - im[b] * wi
                            let ti = re[b] * wi + im[b] * wr
                            re[b] = re[a] - tr; im[b] = im[a] - ti
                            re[a] += tr; im[a] += ti
                        }
                        start += half * 2
                    }
                    half *= 2
                }
            }
        }
    }
}
