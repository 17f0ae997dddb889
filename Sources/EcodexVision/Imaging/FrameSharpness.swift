/// A cheap sharpness measure of a decoded frame, to read a burst's sharpest frames first.
///
/// The mean gradient of the strongest edges (the top `edgeShare` of pixels) inside the text
/// blocks the reader finds (`TextRegions`; the whole photo when it finds none): blur and shake
/// flatten the print's edges, while the scene around it (a hand, glare, a shelf) says nothing
/// of the print. The frames of one burst show the same label, so their scores compare.
enum FrameSharpness {
    /// The share of pixels, strongest gradient first, whose mean is the score: about the
    /// strokes' edges in a block of small print.
    static let edgeShare = 0.01

    /// A rectangle of pixels to measure, in the image's coordinates.
    struct Area: Equatable { var x: Int, y: Int, width: Int, height: Int }

    /// The score of the photo at `path`, decoded as a reading would decode it (`ImageLoader`'s bounds).
    static func measure(imageAt path: String) throws -> Double {
        let gray = try ImageLoader.load(path).gray()
        let blocks = TextRegions.find(gray).map { Area(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        return score(gray.grayBytes(), width: gray.width, height: gray.height, in: blocks)
    }

    /// The mean of the top `edgeShare` of central-difference gradients (|dx| + |dy|, 0...510)
    /// of 8-bit gray pixels, `width` per row, inside `areas` (empty: the whole image); 0 for
    /// an image too small to have an inside.
    static func score(_ gray: [UInt8], width: Int, height: Int, in areas: [Area] = []) -> Double {
        guard width >= 3, height >= 3, gray.count == width * height else { return 0 }
        let whole = Area(x: 0, y: 0, width: width, height: height)
        var histogram = [Int](repeating: 0, count: 511)
        var inside = 0
        gray.withUnsafeBufferPointer { g in
            // Overlapping areas count their shared pixels twice: blocks barely overlap.
            for a in areas.isEmpty ? [whole] : areas {
                let x0 = max(1, a.x), x1 = min(width - 1, a.x + a.width)
                let y0 = max(1, a.y), y1 = min(height - 1, a.y + a.height)
                guard x0 < x1, y0 < y1 else { continue }
                for y in y0..<y1 {
                    let row = y * width
                    for x in x0..<x1 {
                        let dx = abs(Int(g[row + x + 1]) - Int(g[row + x - 1]))
                        let dy = abs(Int(g[row + x + width]) - Int(g[row + x - width]))
                        histogram[dx + dy] += 1
                    }
                }
                inside += (x1 - x0) * (y1 - y0)
            }
        }
        guard inside > 0 else { return 0 }
        let wanted = max(1, Int(Double(inside) * edgeShare))
        var taken = 0, sum = 0
        for level in stride(from: 510, through: 0, by: -1) where taken < wanted {
            let n = min(histogram[level], wanted - taken)
            taken += n
            sum += n * level
        }
        return Double(sum) / Double(taken)
    }

    /// Frame indices, sharpest first; a frame that could not be measured (nil) comes last,
    /// ties keep the order given.
    static func sharpestFirst(_ scores: [Double?]) -> [Int] {
        scores.indices.sorted { a, b in
            let sa = scores[a] ?? -1, sb = scores[b] ?? -1
            return sa != sb ? sa > sb : a < b
        }
    }
}
