import Testing
@testable import EcodexVision

/// Lines of print outside every block (a second label language set apart by a wider gap) join
/// the block they lie beside or below.
@Suite struct TextRegionsLinesTests {
    static func block(x: Int, y: Int, width: Int, height: Int, lineHeight: Double = 8, lines: Int, letters: Int)
        -> TextRegions.Block {
        TextRegions.Block(x: x, y: y, width: width, height: height, lineHeight: lineHeight, lines: lines, letters: letters)
    }

    static let list = block(x: 100, y: 100, width: 300, height: 200, lines: 12, letters: 400)

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var line: TextRegions.Block
        var joins: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        Row(name: "a line two line heights below joins", line: block(x: 100, y: 316, width: 280, height: 8, lines: 1, letters: 30),
            joins: true),
        Row(name: "a line above joins", line: block(x: 120, y: 76, width: 200, height: 8, lines: 1, letters: 20), joins: true),
        Row(name: "a line beside joins", line: block(x: 420, y: 150, width: 100, height: 8, lines: 1, letters: 12),
            joins: true),
        Row(name: "a line far below stays out", line: block(x: 100, y: 360, width: 280, height: 8, lines: 1, letters: 30),
            joins: false),
        Row(name: "a line below but off to the side stays out",
            line: block(x: 420, y: 316, width: 200, height: 8, lines: 1, letters: 30), joins: false),
        Row(name: "print twice the size stays out (a heading, a logo)",
            line: block(x: 100, y: 310, width: 280, height: 16, lineHeight: 16, lines: 1, letters: 20), joins: false),
        Row(name: "a row wider than twice the block stays out (a shelf edge)",
            line: block(x: 0, y: 310, width: 700, height: 8, lines: 1, letters: 60), joins: false),
    ])
    func whichLinesJoin(_ row: Row) {
        let settings = TextRegions.Settings()
        #expect(TextRegions.joins(row.line, Self.list, settings: settings) == row.joins)
        let grown = TextRegions.absorbingLines([Self.list], from: [row.line], settings: settings)
        #expect((grown[0] != Self.list) == row.joins)
    }

    @Test func linesJoinOneAfterTheOtherAndSpecksNever() {
        // Two lines of a second language, the second only near the first; a group of three specks.
        let first = Self.block(x: 100, y: 316, width: 280, height: 8, lines: 1, letters: 30)
        let second = Self.block(x: 100, y: 340, width: 250, height: 8, lines: 1, letters: 28)
        let specks = Self.block(x: 150, y: 305, width: 20, height: 6, lines: 1, letters: 3)
        let grown = TextRegions.absorbingLines([Self.list], from: [second, specks, first], settings: .init())
        #expect(grown.count == 1)
        #expect(grown[0].y == 100 && grown[0].y + grown[0].height == 348)
        #expect(grown[0].lines == 14 && grown[0].letters == 458)
    }

    /// A phone frame with a label of 14 rows and, set apart by a wider gap, one more row (a second
    /// language): the block found reaches down over it.
    @Test func aLineSetApartBelowTheListIsInItsBlock() throws {
        let w = 720, h = 1280
        var bytes = [UInt8](repeating: 0, count: w * h)
        // A busy scene: dark left half, light right half.
        for y in 0..<h { for x in 0..<w { bytes[y * w + x] = x < w / 2 ? 90 : 190 } }
        func fill(x: Int, y: Int, w bw: Int, h bh: Int, _ v: UInt8) {
            for yy in y..<(y + bh) { for xx in x..<(x + bw) { bytes[yy * w + xx] = v } }
        }
        let label = (x: 380, y: 560, w: 300, h: 280)
        fill(x: label.x, y: label.y, w: label.w, h: label.h, 235)
        for r in 0..<14 {
            for c in 0..<34 { fill(x: label.x + 10 + c * 8, y: label.y + 10 + r * 15, w: 5, h: 7, 30) }
        }
        // The last row ends at 212; the second language's row starts 22 px lower.
        let second = label.y + 234
        for c in 0..<30 { fill(x: label.x + 10 + c * 8, y: second, w: 5, h: 7, 30) }
        let pix = try PixImage.gray(bytes, width: w, height: h)
        let blocks = TextRegions.find(pix)
        let hit = try #require(blocks.first { $0.x <= label.x + 20 && $0.y <= label.y + 20 }, "\(blocks)")
        #expect(hit.y + hit.height >= second + 7, "the second language's row is outside: \(blocks)")
        var off = TextRegions.Settings()
        off.lineReach = 0
        let without = try #require(TextRegions.find(pix, settings: off).first, "no block without joining")
        #expect(without.y + without.height < second, "the row was set apart far enough to test joining")
    }
}
