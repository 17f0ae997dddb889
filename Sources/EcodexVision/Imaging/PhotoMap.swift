import EcodexCore
import Foundation

/// Maps points of an image Tesseract read back to the photo the shopper took.
///
/// Preprocessing crops a text block, rescales, turns, deskews and straightens the image;
/// Tesseract's word boxes are in that final image. Each geometric step is recorded here as
/// it runs, and `photoBox` undoes them in reverse order, so the HTML page can outline a
/// word on the photo itself. Steps that only change pixel values (gray, invert, background,
/// denoise) move nothing and are not recorded.
struct PhotoMap {
    enum Step {
        /// The image was cut out of the one before at this offset.
        case crop(x: Int, y: Int)
        /// Both axes were scaled by this factor.
        case scale(Double)
        /// `pixRotateOrth` by this many clockwise quarter turns, from an image of this size.
        case quarterTurns(Int, width: Int, height: Int)
        /// `pixRotate` about the centre by `radians` (clockwise), canvas grown from
        /// `from` to `to` around the same centre.
        case rotate(radians: Double, from: (Int, Int), to: (Int, Int))
        /// Each column `x` moved down by `shift[x]` pixels (curved lines straightened).
        case columnShift([Int])
        /// Lines levelled by `LineFan.level`: `pad` rows added above, and each point moved by
        /// its distance from the middle column times the tilt of its row.
        case fan(LineFan.Fan, pad: Int, width: Int)
    }

    /// In the order they were applied to the photo.
    private(set) var steps: [Step] = []

    mutating func append(_ step: Step) { steps.append(step) }

    /// This map after `other` (`other`'s steps ran first).
    func after(_ other: PhotoMap) -> PhotoMap {
        var m = other
        m.steps += steps
        return m
    }

    /// The point of the photo that ended up at (`x`, `y`) of the final image.
    func photoPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        var p = (x: x, y: y)
        for step in steps.reversed() {
            switch step {
            case let .crop(dx, dy):
                p = (p.x + Double(dx), p.y + Double(dy))
            case let .scale(s):
                p = (p.x / s, p.y / s)
            case let .quarterTurns(n, w, h):
                // Clockwise quarter turn: (x, y) of a w×h image went to (h - y, x).
                switch ((n % 4) + 4) % 4 {
                case 1: p = (p.y, Double(h) - p.x)
                case 2: p = (Double(w) - p.x, Double(h) - p.y)
                case 3: p = (Double(w) - p.y, p.x)
                default: break
                }
            case let .rotate(a, from, to):
                // Undo a clockwise rotation about the centres (y points down).
                let dx = p.x - Double(to.0) / 2, dy = p.y - Double(to.1) / 2
                let c = cos(a), s = sin(a)
                p = (dx * c + dy * s + Double(from.0) / 2, -dx * s + dy * c + Double(from.1) / 2)
            case let .columnShift(shift):
                guard !shift.isEmpty else { break }
                let col = min(max(0, Int(p.x)), shift.count - 1)
                p = (p.x, p.y - Double(shift[col]))
            case let .fan(fan, pad, width):
                let y = p.y - Double(pad)
                let slope = tan(fan.angle(atRow: y) * .pi / 180)
                p = (p.x, y - slope * (p.x - Double(width) / 2))
            }
        }
        return p
    }

    /// The smallest box of the photo holding the four mapped corners of `box`, clamped to
    /// a photo of `width`×`height`.
    func photoBox(_ box: BoundingBox, width: Int, height: Int) -> BoundingBox {
        let corners = [(box.x, box.y), (box.x + box.width, box.y), (box.x, box.y + box.height),
                       (box.x + box.width, box.y + box.height)].map { photoPoint(Double($0.0), Double($0.1)) }
        let x0 = max(0, min(width, Int(corners.map(\.x).min()!.rounded(.down))))
        let y0 = max(0, min(height, Int(corners.map(\.y).min()!.rounded(.down))))
        let x1 = max(x0, min(width, Int(corners.map(\.x).max()!.rounded(.up))))
        let y1 = max(y0, min(height, Int(corners.map(\.y).max()!.rounded(.up))))
        return BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
