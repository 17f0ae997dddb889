import EcodexCore
import Foundation
internal import CLeptonica
internal import CVisionLibs

/// Reads a photo from disk into a `PixImage`, refusing anything that is not a
/// sane JPEG, PNG, TIFF, WebP, BMP or HEIC/HEIF/AVIF before the decoder sees it.
///
/// Checks run cheapest first: existence, size, magic bytes, then the header's
/// dimensions, so an empty file, a text file renamed `.jpg` or a header that
/// claims 30000×30000 pixels fails in microseconds without allocating pixels.
enum ImageLoader {
    /// Largest image we agree to decode; a phone photo is 12–50 MP.
    static let maxPixels = 100_000_000
    /// Largest image in a format decoded at full size (PNG, TIFF, WebP, BMP, HEIC): 4 bytes a pixel
    /// once decoded (3 for HEIC), so 40 MP is 160 MB. JPEGs are decoded reduced (below), so they
    /// may be larger. PNG, TIFF, WebP and BMP are also held to `maxDecodeBytes`.
    static let maxPixelsFullDecode = 40_000_000
    /// Most bytes one decode may hold at once: a progressive JPEG's coefficients with its output,
    /// or a PNG, TIFF, WebP or BMP decoder's rows with the image made from them. Beside the OCR engines and a
    /// batch's other photo (about 160 MB), `scan` stays under its 300 MB bound.
    static let maxDecodeBytes = 120_000_000
    /// Most scans a JPEG may have, each a pass over the whole image: cameras write 1, libjpeg's
    /// progressive script 6 (grey) or 10 (colour). A photo at both limits costs about 2 s of CPU.
    static let maxJPEGScans = 100

    /// Bytes a full decode holds per pixel at its peak (the decoder's rows and Leptonica's image),
    /// rounded up from measurements: colour PNG 7.1–8.1, TIFF 8.3, BMP 7.0, WebP 4.1; grey 1.2–2.2,
    /// but a grey PNG with a transparent colour (tRNS, after the header) is decoded in colour: 5.1.
    static func decodeBytesPerPixel(_ format: Format, colour: Bool) -> Int {
        switch (format, colour) {
        case (.png, false): 6
        case (_, false): 3
        case (.webp, _): 5
        case (.bmp, _): 8
        default: 9
        }
    }
    /// Longest side we agree to decode.
    static let maxSide = 20_000
    /// Most elongated image we agree to read: a label strip photographed whole is about 1:8.
    /// A 20000×1 "photo" is no photo, and every turn or scale of it costs its long side squared.
    static let maxAspect = 25
    /// Shortest side a photo can have and still show one line of text or a barcode.
    static let minSide = 16
    /// JPEGs are decoded at 1/2, 1/4 or 1/8 scale while the result keeps at
    /// least this many pixels: OCR never needs more, and a 12 MP photo then
    /// costs 12 MB of RGB instead of 48 MB.
    static let jpegKeepPixels = 3_000_000

    enum Format: String { case jpeg, png, tiff, webp, bmp, heif }

    /// The ISO base media file brands of still images libheif reads: HEIC (an iPhone's camera
    /// default), its sequences and 10-bit forms, generic HEIF and AVIF.
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1", "avif", "avis"]

    /// The reduction (1, 2, 4 or 8) that keeps at least `jpegKeepPixels` pixels.
    static func reduction(width: Int, height: Int) -> Int {
        var reduction = 1
        while reduction < 8, width * height / ((reduction * 2) * (reduction * 2)) >= jpegKeepPixels {
            reduction *= 2
        }
        return reduction
    }

    /// Loads the image at `path`; throws an `ImageError` (or `InputFileError`), both `capture_error`s.
    ///
    /// `checked` is called with the header's width and height once they passed every check,
    /// before any pixel is decoded (the decoded image may be smaller: big JPEGs are reduced).
    /// `heifThroughRGB` has libheif convert a HEIC photo to RGB instead of Ecodex (tests
    /// compare the two).
    static func load(_ path: String, heifThroughRGB: Bool = false,
                     checked: (_ width: Int, _ height: Int) -> Void = { _, _ in }) throws -> PixImage {
        try VisionLibraries.ensure()
        LeptonicaQuiet.ensure()
        // A regular file only: a FIFO or a device named as a photo would block or never end.
        let (fd, fileBytes) = try PhotoFile.open(path)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        // The decoders open a path themselves: give them the file already opened and checked,
        // so a path swapped for a FIFO after the check cannot reach them.
        let decoderPath = "/proc/self/fd/\(fd)"
        let identity = FileIdentity(fd)
        guard !head.isEmpty else {
            throw ImageError.empty(path: path)
        }
        let bytes = [UInt8](head)
        guard let format = sniff(bytes) else {
            throw ImageError.notAnImage(path: path, detail: "unrecognised file signature")
        }
        // A HEIF file is opened (its boxes parsed, no pixel decoded) to learn its size.
        var heif: OpaquePointer?
        defer { ecx_heif_close(heif) }
        let (width, height, colour) = try format == .heif
            ? openHEIF(decoderPath, shown: path, into: &heif)
            : dimensions(of: decoderPath, shown: path, format: format, head: bytes)
        guard width > 0, height > 0 else {
            throw ImageError.notAnImage(path: path, detail: "header has no size")
        }
        let pixelLimit = switch format {
        case .jpeg: maxPixels
        case .heif: maxPixelsFullDecode
        default: min(maxPixelsFullDecode, maxDecodeBytes / decodeBytesPerPixel(format, colour: colour))
        }
        guard width <= maxSide, height <= maxSide, width * height <= pixelLimit else {
            throw ImageError.tooLarge(width: width, height: height, maxPixels: pixelLimit, maxSide: maxSide)
        }
        guard min(width, height) >= minSide, max(width, height) <= min(width, height) * maxAspect else {
            throw ImageError.tooThin(width: width, height: height, minSide: minSide, maxAspect: maxAspect)
        }
        // No real PNG packs more than about 1032 pixels' bytes into one byte (deflate's limit):
        // a smaller file claiming this size is a lie or truncated, refused before any pixel is made.
        if format == .png, Int64(width) * Int64(height) / 1032 > fileBytes {
            throw ImageError.notAnImage(path: path, detail: "\(fileBytes) bytes cannot hold \(width)×\(height) PNG pixels")
        }
        let layout = format == .jpeg ? JPEGLayout.read(fd: fd, stopAfterScans: maxJPEGScans) : nil
        if let layout { try checkCost(of: layout, path: path) }
        checked(width, height)
        // Photos of a batch are read side by side: two decodes (or a decode and another
        // photo's recognition) each within the budget must not run at once when together they are not.
        let held = decodeBytes(format, width: width, height: height, colour: colour, layout: layout)
        PhotoMemory.shared.acquire(held, freeingIdle: held >= PhotoMemory.trimAbove)
        defer { PhotoMemory.shared.release(held, trim: held >= PhotoMemory.trimAbove) }
        let pix: PixImage?
        var orientation: Int?
        switch format {
        case .jpeg:
            // The camera's Exif orientation, from the file's head (bounded; see `ExifOrientation`).
            let more = (try? handle.read(upToCount: ExifOrientation.headBytes - bytes.count)) ?? Data()
            orientation = ExifOrientation.read(bytes + [UInt8](more))
            let reduction = Int32(reduction(width: width, height: height))
            var warnings: Int32 = 0
            pix = StderrSilencer.run { PixImage(pixReadJpeg(decoderPath, 0, reduction, &warnings, 0)) }
            // libjpeg "recovers" from a truncated or damaged file by painting the
            // rest grey and warning; OCR on half a label is worse than a rescan.
            if warnings > 0 {
                throw ImageError.damaged(path: path, detail: "JPEG decoder reported \(warnings) warning(s)")
            }
        case .heif:
            // libheif applies the file's own rotation and mirroring (`irot`, `imir`), which is
            // how an iPhone records a photo taken upright: no Exif turn on top of it.
            var out: UnsafeMutableRawPointer?
            var reason = [CChar](repeating: 0, count: 256)
            let status = ecx_heif_decode(heif, Int32(reduction(width: width, height: height)), heifThroughRGB ? 1 : 0,
                                         &out, &reason, reason.count)
            guard status == Int32(ECX_HEIF_OK) else {
                throw heifError(status, path: path, reason: text(of: reason))
            }
            pix = PixImage(out?.assumingMemoryBound(to: PIX.self))
            heifDecodes.add()
            if let pix, let identity, let gray = PixImage(pixConvertRGBToLuminance(pix.pointer)) {
                KeptGray.keep(gray, for: identity)
            }
        default:
            pix = try StderrSilencer.run { PixImage(pixRead(decoderPath)) }.map { try reduced($0, by: reduction(width: width, height: height)) }
        }
        guard let pix else {
            throw ImageError.damaged(path: path, detail: "\(format.rawValue) decoder failed")
        }
        if let orientation { return try ExifOrientation.upright(pix, orientation: orientation) }
        return pix
    }

    /// The photo at `path` for the barcode reader: as `load` gives it, or as 8-bit luminance
    /// when it is a HEIF photo decoded a moment ago (its OCR reading found too little, so the
    /// barcode fallback reads it again). A 12 MP HEIC takes about 0.5 s to decode; that first
    /// decode kept its luminance (`KeptGray`), so it is not decoded twice.
    static func loadForBarcodes(_ path: String) throws -> PixImage {
        let (fd, _) = try PhotoFile.open(path)
        let identity = FileIdentity(fd)
        close(fd)
        if let identity, let gray = KeptGray.take(identity) { return gray }
        let pix = try load(path)
        // A HEIF photo decoded just now kept its luminance too: hand that out, keep nothing.
        return identity.flatMap(KeptGray.take) ?? pix
    }

    /// How many HEIF photos this process decoded (tests check that none is decoded twice).
    static let heifDecodes = Counter()

    /// Recognises the container from its first bytes.
    static func sniff(_ b: [UInt8]) -> Format? {
        func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + sig.count && Array(b[offset..<offset + sig.count]) == sig
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("BM".utf8)) { return .bmp }
        // ISO base media file: a box named `ftyp` first, its major brand after it.
        if starts(Array("ftyp".utf8), at: 4), b.count >= 12,
           let brand = String(bytes: b[8..<12], encoding: .ascii), heifBrands.contains(brand) {
            return .heif
        }
        return nil
    }

    /// Bytes the decode of this image holds at its peak, counted against `PhotoMemory`: a
    /// JPEG's output (and its coefficients when buffered whole), libheif's output and planes
    /// (taken as 2 bytes a pixel; not measured), or a full decode's rows and image.
    static func decodeBytes(_ format: Format, width: Int, height: Int, colour: Bool, layout: JPEGLayout?) -> Int {
        let r = reduction(width: width, height: height)
        let output = (width / r) * (height / r) * 4
        switch format {
        case .jpeg: return output + (layout.map { $0.buffersWholeImage ? $0.coefficientBytes : 0 } ?? 0)
        case .heif: return output + width * height * 2
        default: return width * height * decodeBytesPerPixel(format, colour: colour)
        }
    }

    /// A full decode averaged down by `reduction`, as a JPEG is decoded at 1/2–1/8: OCR needs
    /// no more, and the next photo of a batch is not decoded beside a large image. Bilevel
    /// images (1 bit a pixel, small already) stay as they are; 16-bit ones become 8-bit.
    static func reduced(_ pix: PixImage, by reduction: Int) throws -> PixImage {
        guard reduction > 1, pix.depth >= 8 else { return pix }
        return try (pix.depth == 16 ? pix.gray() : pix).scaled(1 / Double(reduction))
    }

    /// Refuses a JPEG whose decoding would take too many passes or hold too many coefficients
    /// (a progressive file is buffered whole at any reduction); libjpeg never sees it.
    static func checkCost(of layout: JPEGLayout, path: String) throws {
        guard layout.scans <= maxJPEGScans else {
            throw ImageError.tooManyScans(path: path, maxScans: maxJPEGScans)
        }
        let bytes = decodeBytes(.jpeg, width: layout.width, height: layout.height, colour: true, layout: layout)
        guard !layout.buffersWholeImage || bytes <= maxDecodeBytes else {
            // Its output, decoded at 1/2, is another byte a pixel.
            let maxPixels = Int(Double(maxDecodeBytes) / (layout.coefficientBytesPerPixel + 1))
            throw ImageError.progressiveTooLarge(width: layout.width, height: layout.height, maxPixels: maxPixels)
        }
    }

    /// Opens a HEIF file with libheif and returns its primary image's size as shown.
    private static func openHEIF(_ path: String, shown: String, into handle: inout OpaquePointer?) throws -> (Int, Int, Bool) {
        var width: Int32 = 0, height: Int32 = 0
        var reason = [CChar](repeating: 0, count: 256)
        let status = ecx_heif_open(path, Int32(maxSide), &handle, &width, &height, &reason, reason.count)
        guard status == Int32(ECX_HEIF_OK) else { throw heifError(status, path: shown, reason: text(of: reason)) }
        return (Int(width), Int(height), true)
    }

    /// The NUL-terminated reason a C function wrote.
    private static func text(of reason: [CChar]) -> String {
        String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func heifError(_ status: Int32, path: String, reason: String) -> ImageError {
        switch status {
        case Int32(ECX_HEIF_NO_LIBRARY), Int32(ECX_HEIF_NO_DECODER): .unsupported(path: path, format: "HEIC/HEIF", detail: reason)
        default: .damaged(path: path, detail: "HEIF: \(reason)")
        }
    }

    /// Width and height from the header, without decoding pixels, and whether the image is
    /// decoded in colour (4 bytes a pixel) rather than grey or through a palette (1 byte).
    ///
    /// PNG and BMP keep their size at fixed offsets, so we read it ourselves;
    /// for the others Leptonica's header reader parses only the header.
    static func dimensions(of path: String, shown: String, format: Format, head b: [UInt8]) throws -> (Int, Int, Bool) {
        switch format {
        case .png:
            // IHDR is always the first chunk: width and height big-endian at 16 and 20, then
            // bit depth and colour type (0 grey; a palette, 3, is decoded in colour when it has
            // transparent entries).
            guard b.count >= 26, Array(b[12..<16]) == Array("IHDR".utf8) else {
                throw ImageError.notAnImage(path: shown, detail: "PNG without IHDR")
            }
            return (Int(be32(b, 16)), Int(be32(b, 20)), b[25] != 0)
        case .bmp:
            // BITMAPINFOHEADER: signed little-endian width at 18, height at 22
            // (negative height means rows stored top-down), bits per pixel at 28.
            guard b.count >= 30 else { throw ImageError.notAnImage(path: shown, detail: "short BMP header") }
            let w = Int32(bitPattern: le32(b, 18)), h = Int32(bitPattern: le32(b, 22))
            return (Int(w), Int(h.magnitude), Int(b[28]) | Int(b[29]) << 8 > 8)
        default:
            var fmt: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
            guard StderrSilencer.run({ pixReadHeader(path, &fmt, &w, &h, &bps, &spp, &cmap) }) == 0 else {
                throw ImageError.notAnImage(path: shown, detail: "\(format.rawValue) header unreadable")
            }
            return (Int(w), Int(h), spp > 1)
        }
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}

/// A file as it is now: device, inode, size and change times. A file written again or
/// replaced under the same name has another identity.
struct FileIdentity: Hashable {
    let device: UInt64, inode: UInt64, size: Int64
    let modified: Int, modifiedNanos: Int, changed: Int, changedNanos: Int

    init?(_ fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        device = UInt64(st.st_dev); inode = UInt64(st.st_ino); size = Int64(st.st_size)
        modified = st.st_mtim.tv_sec; modifiedNanos = st.st_mtim.tv_nsec
        changed = st.st_ctim.tv_sec; changedNanos = st.st_ctim.tv_nsec
    }
}

/// The luminance of the last few HEIF photos decoded, for `ImageLoader.loadForBarcodes`. Bounded:
/// at most `capacity` images (the pipeline reads 4 photos at a time before it parses them),
/// 8-bit and already reduced, about 3 MB each for a 12 MP photo; each is handed out once.
enum KeptGray {
    static let capacity = 4
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [(FileIdentity, PixImage)] = []

    static func keep(_ gray: PixImage, for identity: FileIdentity) {
        lock.lock()
        defer { lock.unlock() }
        kept.removeAll { $0.0 == identity }
        kept.append((identity, gray))
        if kept.count > capacity { kept.removeFirst(kept.count - capacity) }
    }

    static func take(_ identity: FileIdentity) -> PixImage? {
        lock.lock()
        defer { lock.unlock() }
        guard let i = kept.firstIndex(where: { $0.0 == identity }) else { return nil }
        return kept.remove(at: i).1
    }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// Turns off Leptonica's messages to stderr, once per process.
///
/// Leptonica reports every failed call ("Error in pixReadJpeg: ...") on stderr;
/// a shopper should see only our message, so we raise the threshold to "none".
enum LeptonicaQuiet {
    private static let done: Bool = {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        return true
    }()

    static func ensure() { _ = done }
}
