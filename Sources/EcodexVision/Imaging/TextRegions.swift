import Foundation
internal import CLeptonica

/// Finds the blocks of small text on a whole phone photo, so OCR time goes to text
/// and each block can be enlarged to the size Tesseract reads best.
///
/// A shopper's photo is a package in a hand in front of a shelf or a kitchen: the
/// ingredient list is a small part of it, printed a few pixels high. Read whole, the
/// photo cannot be enlarged enough (the work-size cap) and Tesseract spends its time
/// on hands and shelves. The gold set's crops, in contrast, are text from edge to edge.
///
/// Classical means, on a copy of at most ~1 MP: a black and a white top-hat (each on its
/// own) pick thin strokes darker or lighter than their surroundings (ink on paper, white
/// print on colour); a threshold relative to the strongest strokes; blobs the size of a
/// letter or a word of small print are kept; blobs that lie close together are grouped
/// into blocks. A block with enough rows and letters is text worth reading. A photo that
/// is not a camera frame, whose blocks cover most of it, or whose rest is plain paper is a
/// label crop, and nothing is returned (the photo is read whole).
enum TextRegions {
    struct Block: Equatable {
        /// In the pixel coordinates of the photo given to `find`.
        var x: Int, y: Int, width: Int, height: Int
        /// Median height of its text lines, pixels of that photo.
        var lineHeight: Double
        var lines: Int
        /// Letter-sized blobs inside.
        var letters: Int = 0
    }

    /// Settings, each measured on the real development set (goldset/real-dev).
    struct Settings {
        /// The photo is measured on a copy of at most this many pixels.
        var workPixels = 1_000_000
        /// Top-hat window (odd): wider than a stroke of small print, narrower than a logo.
        var tophat: Int32 = 9
        /// Stroke threshold as a share of the 99.5th percentile of the top-hat.
        var strokeShare = 0.3
        /// ...but never below this many gray levels (sensor noise).
        var minStroke = 16
        /// A block needs at least this many text lines...
        var minLines = 3
        /// ...and this many letter-sized blobs (an ingredient list has hundreds).
        var minLetters = 40
        /// Blocks covering more than this share of the photo: it is a crop already.
        var cropCoverage = 0.55
        /// Photos less busy than this outside the blocks are label crops, read whole (`busyness`).
        var sceneBusyness = 0.3
        /// Photos whose shorter side is below this are crops, read whole: phone cameras give 720 px and
        /// more, label crops are mostly smaller, and crops cut into blocks lose codes.
        var minFrameSide = 700
        /// At most this many blocks are read, biggest first.
        var maxBlocks = 4
        /// When the blocks cover more than `cropCoverage`, look again with the blobs in rows
        /// of text only (`inTextRows`).
        var lineNeighbours = true
        /// Lines of print near a block join it (`absorbingLines`): a line needs this many letter blobs...
        var minLineLetters = 8
        /// ...print within this factor of the block's line height...
        var lineHeightRatio = 1.6
        /// ...and to lie within this many of its line heights; 0 turns joining off.
        var lineReach = 4.0
    }

    /// The text blocks worth reading on their own, biggest first; empty when the photo
    /// should be read whole (it is a crop of text already, or no block was found).
    static func find(_ pix: PixImage, settings: Settings = Settings()) -> [Block] {
        // A crop (a strip of label, a scan) is read whole; only camera frames hold scenes.
        guard min(pix.width, pix.height) >= settings.minFrameSide else { return [] }
        guard let (gray, work, scale) = workCopy(pix, settings: settings),
              let letters = letterBoxes(work, settings: settings), letters.count >= settings.minLetters else { return [] }
        func area(_ blocks: [Block]) -> Int { blocks.reduce(0) { $0 + $1.width * $1.height } }
        var groups = group(letters, width: work.width, height: work.height)
        var blocks = groups.filter { isBlock($0, settings: settings) }
        if settings.lineNeighbours, Double(area(blocks)) > settings.cropCoverage * Double(work.pixelCount) {
            // Clutter (a bottle's reflections, a shelf, a hand) can join a label's text into one block over
            // most of a frame, which would be read whole: look again with the blobs in rows of text only.
            let rows = inTextRows(letters)
            if rows.count >= settings.minLetters {
                groups = group(rows, width: work.width, height: work.height)
                blocks = groups.filter { isBlock($0, settings: settings) }
            }
        }
        guard !blocks.isEmpty else { return [] }
        if Double(area(blocks)) > settings.cropCoverage * Double(work.pixelCount) { return [] }
        // A label crop is paper around its text: read it whole. A scene is busy.
        let busy = busyness(work, outside: blocks)
        if busy < settings.sceneBusyness { return [] }
        if settings.lineReach > 0 {
            blocks = absorbingLines(blocks, from: groups.filter { !isBlock($0, settings: settings) }, settings: settings)
        }
        blocks.sort { $0.letters > $1.letters }
        blocks = Array(blocks.prefix(settings.maxBlocks))
        // Back to the photo's coordinates, with a margin of a line height so no
        // letter of the first or last line is cut.
        let s = 1 / scale
        return blocks.map { b in
            let m = b.lineHeight * 1.2
            let x0 = max(0, Int((Double(b.x) - m) * s)), y0 = max(0, Int((Double(b.y) - m) * s))
            let x1 = min(gray.width, Int((Double(b.x + b.width) + m) * s))
            let y1 = min(gray.height, Int((Double(b.y + b.height) + m) * s))
            return Block(x: x0, y: y0, width: x1 - x0, height: y1 - y0, lineHeight: b.lineHeight * s, lines: b.lines,
                         letters: b.letters)
        }
    }

    /// Share of the pixels outside `blocks` that are far from the photo's typical gray
    /// (more than a quarter of its 5–95 % range from the median): low on a label crop
    /// (paper, some ink), high on a scene (hands, shelves, the rest of the package).
    static func busyness(_ work: PixImage, outside blocks: [Block]) -> Double {
        let bytes = work.grayBytes()
        let w = work.width, h = work.height
        let step = max(1, Int((Double(w * h) / 60_000).squareRoot()))
        var values: [Int] = []
        for y in stride(from: 0, to: h, by: step) {
            for x in stride(from: 0, to: w, by: step)
            where !blocks.contains(where: { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }) {
                values.append(Int(bytes[y * w + x]))
            }
        }
        guard values.count >= 100 else { return 0 }
        let stats = GrayStats(histogram: values.reduce(into: [Int](repeating: 0, count: 256)) { $0[$1] += 1 })
        let median = stats.percentile(0.5)
        let spread = max(1, stats.percentile(0.95) - stats.percentile(0.05))
        let far = values.filter { abs($0 - median) * 4 > spread }.count
        return Double(far) / Double(values.count)
    }

    /// The gray photo, the copy measured (at most `workPixels`) and its scale.
    private static func workCopy(_ pix: PixImage, settings: Settings) -> (PixImage, PixImage, Double)? {
        guard let gray = try? (pix.depth == 8 ? pix : pix.gray()) else { return nil }
        let scale = gray.pixelCount > settings.workPixels
            ? (Double(settings.workPixels) / Double(gray.pixelCount)).squareRoot() : 1
        guard let work = scale < 1 ? try? gray.scaled(scale) : gray else { return nil }
        return (gray, work, scale)
    }

    /// Draws the letter boxes (thin) and blocks (thick) found on `pix` into a PNG, for tuning
    /// (`ECODEX_DEBUG_DIR`).
    static func drawDebug(_ pix: PixImage, to path: String, settings: Settings = Settings()) {
        guard let (_, work, _) = workCopy(pix, settings: settings),
              let canvas = PixImage(pixConvertTo32(work.pointer)) else { return }
        let lines = letterBoxes(work, settings: settings) ?? []
        for l in lines {
            if let box = boxCreate(Int32(l.x), Int32(l.y), Int32(l.w), Int32(l.h)) {
                pixRenderBoxArb(canvas.pointer, box, 1, 0, 160, 255)
                var b: UnsafeMutablePointer<BOX>? = box
                boxDestroy(&b)
            }
        }
        if !lines.isEmpty {
            for b in group(lines, width: work.width, height: work.height)
            where b.lines >= settings.minLines && b.letters >= settings.minLetters {
                if let box = boxCreate(Int32(b.x), Int32(b.y), Int32(b.width), Int32(b.height)) {
                    pixRenderBoxArb(canvas.pointer, box, 3, 255, 0, 0)
                    var bb: UnsafeMutablePointer<BOX>? = box
                    boxDestroy(&bb)
                }
            }
        }
        try? canvas.writePNG(to: path)
    }

    /// Boxes (x, y, w, h) of letter- and word-sized blobs of either polarity on the work copy.
    static func letterBoxes(_ work: PixImage, settings: Settings) -> [(x: Int, y: Int, w: Int, h: Int)]? {
        let k = settings.tophat
        var out: [(x: Int, y: Int, w: Int, h: Int)] = []
        // Each polarity on its own: in dense dark print the white top-hat fires on the paper
        // between letters, so the two together would fill a whole paragraph.
        for type in [L_TOPHAT_BLACK, L_TOPHAT_WHITE] {
            guard let strokes = PixImage(pixTophat(work.pointer, k, k, Int32(type))) else { return nil }
            out += strongBlobs(strokes, maxHeight: max(8, work.height / 25), settings: settings)
        }
        return out
    }

    /// Letter-sized blobs where the top-hat `strokes` is strong.
    static func strongBlobs(_ strokes: PixImage, maxHeight: Int, settings: Settings) -> [(x: Int, y: Int, w: Int, h: Int)] {
        let stats = GrayStats(strokes.grayBytes(), step: max(1, strokes.pixelCount / 250_000))
        let level = max(settings.minStroke, Int(Double(stats.percentile(0.995)) * settings.strokeShare))
        // pixThresholdToBinary marks pixels below the threshold: invert so strong strokes are below it.
        guard let inverted = PixImage(pixInvert(nil, strokes.pointer)),
              let binary = PixImage(pixThresholdToBinary(inverted.pointer, Int32(256 - level))),
              let boxes = pixConnCompBB(binary.pointer, 8) else { return [] }
        var boxesVar: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&boxesVar) }
        var out: [(x: Int, y: Int, w: Int, h: Int)] = []
        for i in 0..<Int(boxaGetCount(boxes)) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            boxaGetBoxGeometry(boxes, Int32(i), &x, &y, &w, &h)
            // A letter or a word of small print (small letters touch): a few pixels high, not a long rule.
            guard h >= 3, Int(h) <= maxHeight, w <= 15 * h, w * h >= 6 else { continue }
            out.append((Int(x), Int(y), Int(w), Int(h)))
        }
        return out
    }

    /// The blobs that sit in a row of text: three or more in a row, each beside the next with a similar
    /// height, centres level and a gap under 1.5 heights. The specks of reflections, shelves and hands
    /// rarely line up three deep, and left in they join a label's text to the whole bottle.
    static func inTextRows(_ boxes: [(x: Int, y: Int, w: Int, h: Int)]) -> [(x: Int, y: Int, w: Int, h: Int)] {
        let order = boxes.indices.sorted { boxes[$0].x < boxes[$1].x }
        var neighbours = [[Int]](repeating: [], count: boxes.count)
        for (k, i) in order.enumerated() {
            let a = boxes[i]
            let aCentre = 2 * a.y + a.h
            var next = k + 1
            while next < order.count {
                let j = order[next]
                let b = boxes[j]
                next += 1
                let tall = max(a.h, b.h)
                // Sorted by left edge: once a blob starts beyond the reach of the tallest
                // neighbour a accepts (twice its height), no later one is nearer.
                if Double(b.x - (a.x + a.w)) > 1.5 * Double(2 * a.h) { break }
                guard 2 * min(a.h, b.h) >= tall,
                      Double(b.x - (a.x + a.w)) <= 1.5 * Double(tall),
                      Double(abs(2 * b.y + b.h - aCentre)) <= 0.8 * Double(tall) else { continue }
                neighbours[i].append(j)
                neighbours[j].append(i)
            }
        }
        var kept = [Bool](repeating: false, count: boxes.count)
        for i in boxes.indices where neighbours[i].count >= 2 {
            kept[i] = true
            for j in neighbours[i] { kept[j] = true }
        }
        return boxes.indices.filter { kept[$0] }.map { boxes[$0] }
    }

    /// Letters close to each other (within about three letter heights across, two down) become one block.
    static func group(_ lines: [(x: Int, y: Int, w: Int, h: Int)], width: Int, height: Int) -> [Block] {
        let heights = lines.map(\.h).sorted()
        let typical = max(3, heights[heights.count / 2])
        // Paint the lines into a mask and join neighbours with a closing sized by the typical line.
        guard let mask = PixImage(pixCreate(Int32(width), Int32(height), 1)) else { return [] }
        for l in lines {
            pixRasterop(mask.pointer, Int32(l.x), Int32(l.y), Int32(l.w), Int32(l.h), PIX_SET, nil, 0, 0)
        }
        let gapX = Int32(typical * 3) | 1, gapY = Int32(typical * 2) | 1
        guard let merged = PixImage(pixCloseBrick(nil, mask.pointer, gapX, gapY)),
              let boxes = pixConnCompBB(merged.pointer, 8) else { return [] }
        var boxesVar: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&boxesVar) }
        var blocks: [Block] = []
        for i in 0..<Int(boxaGetCount(boxes)) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            boxaGetBoxGeometry(boxes, Int32(i), &x, &y, &w, &h)
            let inside = lines.filter { l in
                let cx = l.x + l.w / 2, cy = l.y + l.h / 2
                return cx >= Int(x) && cx < Int(x + w) && cy >= Int(y) && cy < Int(y + h)
            }
            guard !inside.isEmpty else { continue }
            let hs = inside.map(\.h).sorted()
            // Count distinct rows, not blobs: words of one line are separate blobs when spaced wide.
            var rows = 0
            var lastBottom = -1
            for l in inside.sorted(by: { $0.y + $0.h / 2 < $1.y + $1.h / 2 }) where l.y + l.h / 2 > lastBottom {
                rows += 1
                lastBottom = l.y + l.h
            }
            blocks.append(Block(x: Int(x), y: Int(y), width: Int(w), height: Int(h),
                                lineHeight: Double(hs[hs.count / 2]), lines: rows, letters: inside.count))
        }
        return blocks
    }
}
