import Foundation

/// What a JPEG's markers say about the cost of decoding it, read without decoding a pixel.
///
/// libjpeg decodes a baseline photo a row of blocks at a time, but a progressive file (or one
/// whose first scan lacks a component) keeps every coefficient of the whole image in memory,
/// and every scan is another pass over it, even when the photo is decoded at 1/8 size.
struct JPEGLayout: Equatable {
    struct Component: Equatable { var h: Int, v: Int }

    var width = 0, height = 0
    var progressive = false
    var components: [Component] = []
    /// Start-of-scan markers seen (a walk that stops at a baseline file's first scan counts 1).
    var scans = 0
    /// Components in the first scan.
    var firstScanComponents = 0

    /// libjpeg's own rule: a progressive file, or a first scan without every component,
    /// makes it buffer the coefficients of the whole image.
    var buffersWholeImage: Bool { progressive || firstScanComponents < components.count }

    /// Bytes of the whole-image coefficient buffer: per component, its blocks rounded up to
    /// its sampling factors, 64 coefficients of 2 bytes each (libjpeg's `jdcoefct.c`).
    var coefficientBytes: Int {
        let hmax = components.map(\.h).max() ?? 1, vmax = components.map(\.v).max() ?? 1
        return components.reduce(0) { total, c in
            let blocksWide = ceil(ceil(width * c.h, hmax), 8), blocksHigh = ceil(ceil(height * c.v, vmax), 8)
            return total + roundUp(blocksWide, c.h) * roundUp(blocksHigh, c.v) * 128
        }
    }

    /// Coefficient bytes per pixel, for saying how large a progressive photo may be.
    var coefficientBytesPerPixel: Double {
        width > 0 && height > 0 ? Double(coefficientBytes) / Double(width * height) : 0
    }

    private func ceil(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
    private func roundUp(_ a: Int, _ b: Int) -> Int { ceil(a, b) * b }

    /// Walks the markers of the JPEG open at `fd` (from offset 0, with `pread`: the descriptor's
    /// position is left alone) and counts its scans, skipping their entropy-coded data (stuffed
    /// `FF 00` bytes, restart markers, fill bytes). Stops at the end of the image, the end of the
    /// file, past `stopAfterScans` scans, or at the first scan of a baseline single-scan file,
    /// where libjpeg refuses any further scan itself. Nil when no frame header comes first.
    static func read(fd: Int32, stopAfterScans: Int) -> JPEGLayout? {
        var bytes = Bytes(fd: fd)
        guard bytes.next() == 0xFF, bytes.next() == 0xD8 else { return nil }
        var layout = JPEGLayout()
        var haveFrame = false
        var marker = bytes.nextMarker()
        while let m = marker {
            switch m {
            case 0xD9:
                return haveFrame ? layout : nil
            case 0xD8, 0x01, 0xD0...0xD7:
                marker = bytes.nextMarker()
                continue
            default:
                break
            }
            guard let length = bytes.be16(), length >= 2 else { return haveFrame ? layout : nil }
            var body = length - 2
            if isFrame(m), !haveFrame {
                guard body >= 6, let precision = bytes.next(), let h = bytes.be16(), let w = bytes.be16(), let n = bytes.next()
                else { return nil }
                _ = precision
                body -= 6
                layout.width = w
                layout.height = h
                layout.progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(m)
                for _ in 0..<Int(n) where body >= 3 {
                    guard bytes.next() != nil, let hv = bytes.next(), bytes.next() != nil else { return nil }
                    body -= 3
                    // libjpeg refuses factors outside 1–4; clamped here so the arithmetic stays sane.
                    layout.components.append(Component(h: min(max(Int(hv >> 4), 1), 4), v: min(max(Int(hv & 0x0F), 1), 4)))
                }
                haveFrame = true
                bytes.skip(body)
                marker = bytes.nextMarker()
            } else if m == 0xDA {
                guard haveFrame, body >= 1, let n = bytes.next() else { return nil }
                bytes.skip(body - 1)
                layout.scans += 1
                if layout.scans == 1 { layout.firstScanComponents = Int(n) }
                if !layout.buffersWholeImage || layout.scans > stopAfterScans { return layout }
                marker = bytes.nextMarker(inScan: true)
            } else {
                bytes.skip(body)
                marker = bytes.nextMarker()
            }
        }
        return haveFrame ? layout : nil
    }

    /// Start of frame: SOF0–3, 5–7, 9–11, 13–15 (C4 is DHT, C8 reserved, CC is DAC).
    private static func isFrame(_ m: UInt8) -> Bool {
        (0xC0...0xCF).contains(m) && m != 0xC4 && m != 0xC8 && m != 0xCC
    }

    /// The file's bytes in order, read in blocks with `pread`; nil past the end.
    private struct Bytes {
        let fd: Int32
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var count = 0, index = 0
        var offset: off_t = 0

        init(fd: Int32) { self.fd = fd }

        mutating func next() -> UInt8? {
            if index == count {
                let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
                guard n > 0 else { return nil }
                offset += off_t(n)
                count = n
                index = 0
            }
            defer { index += 1 }
            return buffer[index]
        }

        mutating func be16() -> Int? {
            guard let a = next(), let b = next() else { return nil }
            return Int(a) << 8 | Int(b)
        }

        mutating func skip(_ n: Int) {
            let inBuffer = min(n, count - index)
            index += inBuffer
            offset += off_t(n - inBuffer)
        }

        /// Moves to the next `FF` byte (found with `memchr`: entropy-coded data is most of a file)
        /// and returns true, or false at the end of the file.
        mutating func toNextFF() -> Bool {
            while true {
                if index < count {
                    let found = buffer.withUnsafeBytes { raw -> Int? in
                        memchr(raw.baseAddress! + index, 0xFF, count - index).map { raw.baseAddress!.distance(to: UnsafeRawPointer($0)) }
                    }
                    if let found { index = found + 1; return true }
                    index = count
                }
                guard next() != nil else { return false }
                index -= 1
            }
        }

        /// The next marker code. Between segments, bytes that are not a marker are skipped (libjpeg
        /// skips them too, with a warning); inside a scan's entropy-coded data (`inScan`), `FF 00`
        /// is a stuffed data byte and `FF D0`–`FF D7` restart markers. `FF FF` is fill either way.
        mutating func nextMarker(inScan: Bool = false) -> UInt8? {
            while toNextFF() {
                while let m = next() {
                    if m == 0xFF { continue }
                    if m == 0x00 || (inScan && (0xD0...0xD7).contains(m)) { break }
                    return m
                }
            }
            return nil
        }
    }
}
