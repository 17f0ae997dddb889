import Foundation
import EcodexCore
internal import CLeptonica

/// Small image edits used to build test variants of real photos.
extension PixImage {
    /// Reads any format Leptonica supports, without the loader's checks.
    static func read(_ path: String) -> PixImage? {
        LeptonicaQuiet.ensure()
        return PixImage(pixRead(path))
    }

    /// An 8-bit gray image from `bytes`, `width` per row, top row first.
    static func gray(_ bytes: [UInt8], width: Int, height: Int) throws -> PixImage {
        precondition(bytes.count == width * height)
        guard let pix = PixImage(pixCreate(Int32(width), Int32(height), 8)) else {
            throw VisionFailure.leptonica("pixCreate")
        }
        for y in 0..<height {
            for x in 0..<width {
                pixSetPixel(pix.pointer, Int32(x), Int32(y), UInt32(bytes[y * width + x]))
            }
        }
        return pix
    }

    /// A copy with every gray level or colour inverted.
    func inverted() throws -> PixImage {
        try map("pixInvert") { pixInvert(nil, $0) }
    }

    /// 8-bit gray copy (luminance for colour images).
    /// One colour channel of a 32-bit image as gray bytes (0 red, 1 green, 2 blue).
    func channelBytes(_ index: Int) throws -> [UInt8] {
        let component = Int32([COLOR_RED, COLOR_GREEN, COLOR_BLUE][index])
        return try map("pixGetRGBComponent") { pixGetRGBComponent($0, component) }.grayBytes()
    }

    func gray() throws -> PixImage {
        try map("pixConvertTo8") { pixConvertTo8($0, 0) }
    }

    /// A copy scaled by `factor` in both directions.
    func scaled(_ factor: Double) throws -> PixImage {
        try map("pixScale") { pixScale($0, Float(factor), Float(factor)) }
    }

    /// The rectangle at (`x`, `y`) of size `width`×`height`.
    func cropped(x: Int, y: Int, width: Int, height: Int) throws -> PixImage {
        guard let box = boxCreate(Int32(x), Int32(y), Int32(width), Int32(height)) else {
            throw VisionFailure.leptonica("boxCreate")
        }
        var boxVar: UnsafeMutablePointer<BOX>? = box
        defer { boxDestroy(&boxVar) }
        return try map("pixClipRectangle") { pixClipRectangle($0, box, nil) }
    }

    /// This image pasted at (`x`, `y`) on a white canvas of `width`×`height` (8-bit gray).
    func placedOnCanvas(width: Int, height: Int, x: Int, y: Int) throws -> PixImage {
        let source = depth == 8 ? self : try gray()
        guard let canvas = PixImage(pixCreate(Int32(width), Int32(height), 8)) else {
            throw VisionFailure.leptonica("pixCreate")
        }
        pixSetAllGray(canvas.pointer, 255)
        pixRasterop(canvas.pointer, Int32(x), Int32(y), Int32(source.width), Int32(source.height),
                    PIX_SRC, source.pointer, 0, 0)
        return canvas
    }

    /// Copies `other` (converted to this image's depth when it is 8-bit gray) onto this image at (`x`, `y`).
    func paste(_ other: PixImage, x: Int, y: Int) throws {
        let source = other.depth == depth ? other : try other.gray()
        pixRasterop(pointer, Int32(x), Int32(y), Int32(source.width), Int32(source.height),
                    PIX_SRC, source.pointer, 0, 0)
    }

    /// The image turned clockwise by `quarters` quarter turns.
    func turned(_ quarters: Int) throws -> PixImage {
        try map("pixRotateOrth") { pixRotateOrth($0, Int32(quarters)) }
    }

    /// Writes the image as PNG.
    func writePNG(to path: String) throws {
        try write(to: path, format: "png")
    }

    /// Writes the image in the format named by `format` (png, bmp, tif, webp, jpg).
    func write(to path: String, format: String) throws {
        let formats: [String: Int32] = ["png": Int32(IFF_PNG), "bmp": Int32(IFF_BMP), "tif": Int32(IFF_TIFF_ZIP),
                                        "webp": Int32(IFF_WEBP), "jpg": Int32(IFF_JFIF_JPEG)]
        guard let code = formats[format], pixWrite(path, pointer, code) == 0 else {
            throw VisionFailure.leptonica("pixWrite \(path)")
        }
    }
}

extension PixImage {
    /// A JPEG copy whose longer side is at most `maxSide` pixels, for showing the photo
    /// on the HTML page. Colour stays colour; a palette or 16-bit image becomes 8-bit.
    func preview(maxSide: Int) throws -> PhotoPreview {
        let s = min(1, Double(maxSide) / Double(max(width, height)))
        var small = s < 1 ? try map("pixScale") { pixScale($0, Float(s), Float(s)) } : self
        if !(small.depth == 8 && pixGetColormap(small.pointer) == nil) && small.depth != 32 {
            small = try small.map("pixConvertTo32") { pixConvertTo32($0) }
        }
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemJpeg(&data, &size, small.pointer, 80, 0) == 0, let data else {
            throw VisionFailure.leptonica("pixWriteMemJpeg")
        }
        defer { free(data) }
        return PhotoPreview(jpeg: Array(UnsafeBufferPointer(start: data, count: size)),
                            width: small.width, height: small.height, scale: Double(small.width) / Double(width))
    }
}
