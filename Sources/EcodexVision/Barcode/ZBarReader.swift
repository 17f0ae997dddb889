import EcodexCore
import Foundation
internal import CLeptonica
internal import CZBar

/// Finds retail product barcodes (EAN-13, EAN-8, UPC-A, UPC-E) in a photo with ZBar.
///
/// Other symbologies are switched off: they are never on food packs, and
/// each enabled decoder costs time on every scan line. Results are
/// de-duplicated and every code's check digit is verified again here.
public final class ZBarReader: BarcodeReader {
    /// A failure when the vision libraries cannot load: `barcodes(inImageAt:)` then throws it.
    private let scanner: Result<ZBarScanner, Error>

    public init() {
        scanner = Result { try VisionLibraries.ensure(); return ZBarScanner() }
    }

    /// The barcodes in the image at `path`, in the order ZBar found them.
    ///
    /// Throws a `capture_error` when the file is missing or not a readable
    /// image; an image without a barcode returns an empty array.
    public func barcodes(inImageAt path: String) throws -> [Barcode] {
        let scanner = try scanner.get()
        let gray = try toGray(ImageLoader.loadForBarcodes(path))
        var found = scanner.scan(gray)
        // ZBar's scan lines are horizontal and vertical, so a code turned by
        // more than about 30° can miss every line; try two turned copies then.
        // The turned copies are at most 1.5 MP, counted on the turned canvas (for a long thin image far
        // larger than the image): full-size turns cost much time on photos with no barcode, and a code
        // photographed at a steep angle fills a good part of the frame.
        if found.isEmpty {
            let limit = 1_500_000.0
            let turned = Self.turnedArea(width: gray.width, height: gray.height, degrees: 35)
            let small = turned <= limit ? gray : try gray.scaled((limit / turned).squareRoot())
            for degrees in [35.0, -35.0] {
                found = scanner.scan(try Preprocessor.rotate(small, degrees: degrees))
                if !found.isEmpty { break }
            }
        }
        var seen = Set<String>()
        return found.filter { Self.checkDigitIsValid($0) && seen.insert($0.symbology + $0.digits).inserted }
    }

    /// The pixels of the canvas a `width`×`height` image needs once turned by `degrees`.
    static func turnedArea(width: Int, height: Int, degrees: Double) -> Double {
        let r = degrees * .pi / 180, c = abs(cos(r)), s = abs(sin(r))
        let w = Double(width), h = Double(height)
        return (w * c + h * s) * (w * s + h * c)
    }

    /// An 8-bit gray copy, shrunk to at most 4 MP: bars survive that easily and
    /// ZBar's time grows with pixels.
    private func toGray(_ pix: PixImage) throws -> PixImage {
        var gray = pix.depth == 8 && pixGetColormap(pix.pointer) == nil
            ? pix : try pix.map("pixConvertTo8") { pixConvertTo8($0, 0) }
        let limit = 4_000_000
        if gray.pixelCount > limit {
            let s = Float((Double(limit) / Double(gray.pixelCount)).squareRoot())
            gray = try gray.map("pixScale") { pixScale($0, s, s) }
        }
        return gray
    }

    /// True when the digits fit the symbology and the last is the GS1 check digit (`GTIN` owns the rule).
    static func checkDigitIsValid(_ code: Barcode) -> Bool {
        GTIN(symbology: code.symbology, digits: code.digits) != nil
    }
}

/// Owns one ZBar image scanner configured for EAN/UPC; destroyed in `deinit`.
final class ZBarScanner {
    private let handle: OpaquePointer

    init() {
        // zbar_image_scanner_create only fails when malloc does.
        handle = zbar_image_scanner_create()!
        _ = zbar_image_scanner_set_config(handle, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in [ZBAR_EAN13, ZBAR_EAN8, ZBAR_UPCA, ZBAR_UPCE] {
            _ = zbar_image_scanner_set_config(handle, symbology, ZBAR_CFG_ENABLE, 1)
        }
    }

    deinit { zbar_image_scanner_destroy(handle) }

    /// Decodes an 8-bit gray image; returns what ZBar reports, unfiltered.
    func scan(_ gray: PixImage) -> [Barcode] {
        // Sparser scan lines on big images: a barcode spans hundreds of rows there.
        let density: Int32 = gray.pixelCount > 2_000_000 ? 2 : 1
        _ = zbar_image_scanner_set_config(handle, ZBAR_NONE, ZBAR_CFG_X_DENSITY, density)
        _ = zbar_image_scanner_set_config(handle, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, density)
        let image = ZBarImage(width: gray.width, height: gray.height, y800: gray.grayBytes())
        return image.scan(with: handle)
    }
}

/// Owns one `zbar_image_t` and the Y800 bytes it points into.
final class ZBarImage {
    private let handle: OpaquePointer
    private let buffer: UnsafeMutableBufferPointer<UInt8>

    init(width: Int, height: Int, y800: [UInt8]) {
        handle = zbar_image_create()!
        // ZBar keeps a pointer to the pixels, so they live as long as this object.
        buffer = .allocate(capacity: max(1, y800.count))
        _ = buffer.initialize(from: y800)
        zbar_image_set_format(handle, Self.fourcc("Y800"))
        zbar_image_set_size(handle, UInt32(width), UInt32(height))
        zbar_image_set_data(handle, buffer.baseAddress, UInt(y800.count), nil)
    }

    deinit {
        zbar_image_destroy(handle)
        buffer.deallocate()
    }

    func scan(with scanner: OpaquePointer) -> [Barcode] {
        guard zbar_scan_image(scanner, handle) > 0 else { return [] }
        var result: [Barcode] = []
        var symbol = zbar_image_first_symbol(handle)
        while let s = symbol {
            // The symbol's data belongs to the image; copy it out now.
            if let name = Self.name(zbar_symbol_get_type(s)), let data = zbar_symbol_get_data(s) {
                result.append(Barcode(symbology: name, digits: String(cString: data)))
            }
            symbol = zbar_symbol_next(s)
        }
        return result
    }

    private static func name(_ type: zbar_symbol_type_t) -> String? {
        switch type {
        case ZBAR_EAN13: "EAN-13"
        case ZBAR_EAN8: "EAN-8"
        case ZBAR_UPCA: "UPC-A"
        case ZBAR_UPCE: "UPC-E"
        default: nil
        }
    }

    private static func fourcc(_ s: String) -> UInt {
        let b = Array(s.utf8)
        return UInt(b[0]) | UInt(b[1]) << 8 | UInt(b[2]) << 16 | UInt(b[3]) << 24
    }
}
