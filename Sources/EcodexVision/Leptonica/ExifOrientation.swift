internal import CLeptonica

/// The orientation a camera wrote into a JPEG's Exif block (tag 0x0112, values 1–8).
///
/// Phones store the sensor's pixels as they came and say in Exif how to turn them for
/// display: a photo taken holding the phone upright is often stored sideways with
/// orientation 6, one taken upside down with 3. Leptonica ignores the tag, so the photo is
/// turned here, right after decoding, and everything after (blocks, OCR, the photo on the
/// HTML page) sees it as the shopper saw it on screen.
enum ExifOrientation {
    /// How many bytes of the file's head are searched for the Exif block (it comes first,
    /// in the APP1 segment right after the JPEG start; a segment holds at most 64 kB).
    static let headBytes = 128 * 1024

    /// The orientation value in `head` (the start of a JPEG file), or nil when there is
    /// none, it is 1 (as stored), or anything in the way is malformed. Never reads outside `head`.
    static func read(_ head: [UInt8]) -> Int? {
        guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        var i = 2
        // Walk the segments before the image data: FF xx, then a big-endian length that counts itself.
        while i + 4 <= head.count, head[i] == 0xFF {
            let marker = head[i + 1]
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xFF { i += 1; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }  // image data or end: no Exif before it
            let length = Int(head[i + 2]) << 8 | Int(head[i + 3])
            guard length >= 2 else { return nil }
            let body = i + 4, end = i + 2 + length
            if marker == 0xE1, end <= head.count, end - body >= 14,
               Array(head[body..<(body + 6)]) == [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] {  // "Exif\0\0"
                return orientation(tiff: Array(head[(body + 6)..<end]))
            }
            i = end
        }
        return nil
    }

    /// The orientation entry of IFD0 in a TIFF structure (the Exif payload).
    static func orientation(tiff t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 512) {
            let entry = ifd + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT, one value, stored in the first two bytes of the value field.
            guard u16(entry + 2) == 3, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
            return value == 1 ? nil : value
        }
        return nil
    }

    /// `pix` turned (and mirrored, for the rare values 2, 4, 5 and 7) as `orientation` says.
    static func upright(_ pix: PixImage, orientation: Int) throws -> PixImage {
        func turn(_ p: PixImage, _ quarters: Int) throws -> PixImage { try p.turned(quarters) }
        func mirror(_ p: PixImage) throws -> PixImage {
            try p.map("pixFlipLR") { pixFlipLR(nil, $0) }
        }
        switch orientation {
        case 2: return try mirror(pix)
        case 3: return try turn(pix, 2)
        case 4: return try turn(mirror(pix), 2)
        case 5: return try turn(mirror(pix), 3)
        case 6: return try turn(pix, 1)
        case 7: return try turn(mirror(pix), 1)
        case 8: return try turn(pix, 3)
        default: return pix
        }
    }
}
