/// Lines of print that fall outside every block: a second label language set apart from the
/// first by a wider gap is a group of one or two lines, too few to be a block of its own.
extension TextRegions {
    /// Whether a group of letters is a block worth reading on its own.
    static func isBlock(_ group: Block, settings: Settings) -> Bool {
        group.lines >= settings.minLines && group.letters >= settings.minLetters
    }

    /// `blocks` grown by the groups of `rest` that hold a line of print of their size beside or
    /// below them (or above), nearest first, until none is left within reach.
    static func absorbingLines(_ blocks: [Block], from rest: [Block], settings: Settings) -> [Block] {
        var blocks = blocks
        var left = rest.filter { $0.letters >= settings.minLineLetters && $0.lines <= 2 }
        var joined = true
        while joined, !left.isEmpty {
            joined = false
            for (i, b) in blocks.enumerated() {
                guard let k = left.firstIndex(where: { joins($0, b, settings: settings) }) else { continue }
                blocks[i] = merged(b, left.remove(at: k))
                joined = true
                break
            }
        }
        return blocks
    }

    /// Whether `line` is print of `block`'s size within `lineReach` line heights of it, beside it or
    /// above or below it, overlapping its span.
    static func joins(_ line: Block, _ block: Block, settings: Settings) -> Bool {
        let ratio = line.lineHeight / max(1, block.lineHeight)
        guard ratio >= 1 / settings.lineHeightRatio, ratio <= settings.lineHeightRatio,
              line.width <= 2 * block.width else { return false }
        let reach = Int(settings.lineReach * block.lineHeight)
        let gapX = max(line.x - (block.x + block.width), block.x - (line.x + line.width))
        let gapY = max(line.y - (block.y + block.height), block.y - (line.y + line.height))
        // Below or above: overlapping across; beside: overlapping down.
        return (gapX < 0 && gapY <= reach) || (gapY < 0 && gapX <= reach)
    }

    static func merged(_ a: Block, _ b: Block) -> Block {
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        let x1 = max(a.x + a.width, b.x + b.width), y1 = max(a.y + a.height, b.y + b.height)
        return Block(x: x0, y: y0, width: x1 - x0, height: y1 - y0, lineHeight: a.lineHeight,
                     lines: a.lines + b.lines, letters: a.letters + b.letters)
    }
}
