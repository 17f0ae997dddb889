import EcodexCore
import Foundation
import Testing
@testable import EcodexVision

/// A straight motion streak measured and undone (`MotionBlur`), on print made in the test and on
/// a gold-set render.
@Suite struct MotionBlurTests {
    static let width = 640, height = 320

    /// Dark print on light paper: lines of letter-sized strokes (bars, crossbars and dots) with
    /// mild sensor grain, drawn from `seed`.
    static func print(seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var ink = [Float](repeating: 0, count: width * height)
        for lineTop in stride(from: 24, to: height - 40, by: 34) {
            var x = 20
            while x < width - 40 {
                let letter = Int(random.next() % 10) + 6
                let strokes = Int(random.next() % 3) + 1
                for s in 0..<strokes {
                    // x-height strokes, some rising to capitals, some dropping below the line.
                    let (top, bottom) = [(8, 18), (8, 18), (8, 18), (2, 18), (8, 23)][Int(random.next() % 5)]
                    let sx = x + s * letter / max(1, strokes), w = 2 + Int(random.next() % 2)
                    for y in (lineTop + top)..<(lineTop + bottom) { for xx in sx..<(sx + w) { ink[y * width + xx] = 1 } }
                }
                let bar = lineTop + 8 + Int(random.next() % 8)
                for y in bar..<(bar + 2) { for xx in x..<(x + letter) { ink[y * width + xx] = 1 } }
                x += letter + 4 + (random.next() % 5 == 0 ? 10 : 0)
            }
        }
        return ink.map { v in
            let grain = Float(Int(random.next() % 7) - 3)
            return UInt8(max(0, min(255, 225 - 185 * v + grain)))
        }
    }

    /// `bytes` smeared along (`dx`, `dy`): each pixel the mean of 64 bilinear samples on a line of
    /// that extent centred on it (the way a camera moving at even speed smears a still label).
    static func smeared(_ bytes: [UInt8], dx: Double, dy: Double) -> [UInt8] {
        func at(_ x: Double, _ y: Double) -> Double {
            let cx = min(max(x, 0), Double(width - 1)), cy = min(max(y, 0), Double(height - 1))
            let x0 = min(Int(cx), width - 2), y0 = min(Int(cy), height - 2)
            let fx = cx - Double(x0), fy = cy - Double(y0)
            func p(_ x: Int, _ y: Int) -> Double { Double(bytes[y * width + x]) }
            return (1 - fy) * ((1 - fx) * p(x0, y0) + fx * p(x0 + 1, y0)) + fy * ((1 - fx) * p(x0, y0 + 1) + fx * p(x0 + 1, y0 + 1))
        }
        var out = [UInt8](repeating: 0, count: bytes.count)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for s in 0..<64 {
                    let t = Double(s) / 63 - 0.5
                    sum += at(Double(x) + t * dx, Double(y) + t * dy)
                }
                out[y * width + x] = UInt8((sum / 64).rounded())
            }
        }
        return out
    }

    /// Mean absolute difference away from the border (where a smear reaches past the edge).
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0, count = 0
        for y in 20..<(height - 20) {
            for x in 20..<(width - 20) { sum += abs(Int(a[y * width + x]) - Int(b[y * width + x])); count += 1 }
        }
        return Double(sum) / Double(count)
    }

    /// A streak is found with its length and direction (within 1.5 px and 8°), and undoing it brings
    /// the print closer to the sharp original (Wiener keeps some blur rather than ringing).
    @Test(arguments: [(11.0, 30.0), (13.0, 90.0), (9.0, 150.0)])
    func streakIsMeasuredAndUndone(_ length: Double, _ degrees: Double) throws {
        let sharp = Self.print(seed: 52_031)
        let radians = degrees * .pi / 180
        let blurred = Self.smeared(sharp, dx: length * cos(radians), dy: length * sin(radians))
        let streak = try #require(MotionBlur.measure(blurred, width: Self.width, height: Self.height))
        #expect(MotionBlur.isStreak(streak), "\(streak)")
        #expect(abs(streak.length - length) <= 1.5, "\(streak)")
        let turn = abs(streak.degrees - degrees)
        #expect(min(turn, 180 - turn) <= 8, "\(streak)")
        let restored = MotionBlur.deblurred(blurred, width: Self.width, height: Self.height, streak: streak)
        let before = Self.difference(blurred, sharp), after = Self.difference(restored, sharp)
        #expect(after < 0.85 * before, "difference to the sharp print: \(before) blurred, \(after) restored")
    }

    /// Sharp print and print out of focus (gold-set renders), and print blurred evenly, measure no streak.
    @Test func sharpOrEvenlyBlurredPrintHasNoStreak() throws {
        // Gold-set renders: clean print, and a Gaussian blur of 15 % of the letter height (g0612).
        for name in ["g0022.jpg", "g0034.jpg", "g0044.jpg", "g0612.jpg"] {
            let gray = try #require(PixImage.read(Fixtures.packageRoot + "/goldset/synth/" + name)).gray()
            let streak = try #require(MotionBlur.measure(gray.grayBytes(), width: gray.width, height: gray.height))
            #expect(!MotionBlur.isStreak(streak), "\(name): \(streak)")
        }
        let sharp = Self.print(seed: 52_032)
        // Two short crossed smears: a soft blur of about 2 px in every direction.
        let soft = Self.smeared(Self.smeared(sharp, dx: 4, dy: 0), dx: 0, dy: 4)
        let softStreak = try #require(MotionBlur.measure(soft, width: Self.width, height: Self.height))
        #expect(!MotionBlur.isStreak(softStreak), "\(softStreak)")
    }

    /// What counts as a streak: long enough to be more than stroke width, not beyond what is
    /// looked for, and a deep dip that edges echo.
    @Test(arguments: [
        (MotionBlur.Streak(dx: 9, dy: 5, depth: 8, echo: 0.25), true),
        (MotionBlur.Streak(dx: 4, dy: 0, depth: 14, echo: 0.6), false),     // stroke width, not a streak
        (MotionBlur.Streak(dx: 0, dy: 17, depth: 7, echo: 0.13), false),    // a deep dip edges do not echo
        (MotionBlur.Streak(dx: 12, dy: 0, depth: 2.5, echo: 0.4), false),   // edges echo, dip shallow
        (MotionBlur.Streak(dx: 8, dy: 0, depth: 4.9, echo: 0.46), false),   // out of focus: letter pitch (g0612)
        (MotionBlur.Streak(dx: 13, dy: 0, depth: 5.5, echo: 0.43), true),   // a streak along the lines (g0634)
        (MotionBlur.Streak(dx: 40, dy: 20, depth: 9, echo: 0.4), false),    // longer than looked for
        (MotionBlur.Streak(dx: 8, dy: 0, depth: 5.8, echo: 0.26), false),   // a heavy JPEG's block grid (g0531)
        (MotionBlur.Streak(dx: 16, dy: 0, depth: 5.6, echo: 0.25), false),  // the grid, two blocks (g0534)
        (MotionBlur.Streak(dx: 0, dy: 8, depth: 6.4, echo: 0.19), false),   // the grid down (g0330)
        (MotionBlur.Streak(dx: 12, dy: 0, depth: 5.8, echo: 0.26), true),   // off the grid: a streak
        (MotionBlur.Streak(dx: 0, dy: 18, depth: 7.1, echo: 0.16), false),  // straight down: the lines' pitch (g0276)
        (MotionBlur.Streak(dx: 0, dy: 15, depth: 9, echo: 0.26), true),     // straight down, far above the pitch's score
        (MotionBlur.Streak(dx: 0, dy: 8, depth: 10.8, echo: 0.24), true),   // a streak down, on the grid (g0631)
    ])
    func whatCountsAsAStreak(_ streak: MotionBlur.Streak, _ counts: Bool) {
        #expect(MotionBlur.isStreak(streak) == counts, "\(streak)")
    }

    /// The transform and its inverse give the tile back; a single bright pixel has a flat spectrum.
    @Test func fourierTransformRoundTrips() {
        let fft = FFT(size: 16)
        var random = SplitMix64(seed: 7)
        let original = (0..<256).map { _ in Float(random.next() % 256) }
        var re = original, im = [Float](repeating: 0, count: 256)
        fft.transform2D(&re, &im, inverse: false)
        #expect(abs(re[0] - original.reduce(0, +)) < 0.01 * original.reduce(0, +))
        fft.transform2D(&re, &im, inverse: true)
        #expect(zip(re, original).allSatisfy { abs($0 - $1) < 0.01 })
        var dot = [Float](repeating: 0, count: 256), dotIm = dot
        dot[0] = 1
        fft.transform2D(&dot, &dotIm, inverse: false)
        #expect(dot.allSatisfy { abs($0 - 1) < 1e-5 } && dotIm.allSatisfy { abs($0) < 1e-5 })
    }

    /// A heavily compressed JPEG label: its 8×8 block grid once measured as a streak and was
    /// "undone", and the label then read nothing (g0531, g0534 in the gold set's jpeg tier).
    @Test(arguments: ["g0531.jpg", "g0534.jpg"])
    func aJPEGBlockGridIsNoStreak(_ name: String) throws {
        let reader = try TesseractLabelReader()
        let result = try reader.read(imageAt: Fixtures.packageRoot + "/goldset/synth/" + name)
        #expect(!result.steps.contains { $0.hasPrefix("undo motion blur") }, "\(result.steps)")
        #expect(result.meanConfidence > 60, "\(result.meanConfidence)")
    }

    /// A streak straight down, measured 8 px (`g0631`, 9 px at 94° in the gold set's hard tier): on
    /// the spot of a JPEG's block grid, but it scores far above what a grid makes, so it is undone.
    @Test func aStreakOnTheGridSpotIsStillAStreak() throws {
        let gray = try #require(PixImage.read(Fixtures.packageRoot + "/goldset/synth/g0631.jpg")).gray()
        let streak = try #require(MotionBlur.measure(gray.grayBytes(), width: gray.width, height: gray.height))
        #expect(MotionBlur.onJPEGGrid(streak), "\(streak)")
        #expect(MotionBlur.isStreak(streak), "\(streak)")
    }

    /// A streak whose dip is shallower than the print's own stroke dip (4 px) is still found (`g0638`,
    /// 9 px at 83° in the gold set's hard tier); the lines' pitch of clean capitals (`g0276`) is not a streak.
    @Test func aStreakBehindTheStrokeDipIsFound() throws {
        let smeared = try #require(PixImage.read(Fixtures.packageRoot + "/goldset/synth/g0638.jpg")).gray()
        let streak = try #require(MotionBlur.measure(smeared.grayBytes(), width: smeared.width, height: smeared.height))
        #expect(MotionBlur.isStreak(streak), "\(streak)")
        #expect(abs(streak.length - 9) <= 1.5 && abs(streak.degrees - 83) <= 8, "\(streak)")
        let capitals = try #require(PixImage.read(Fixtures.packageRoot + "/goldset/synth/g0276.jpg")).gray()
        let lines = try #require(MotionBlur.measure(capitals.grayBytes(), width: capitals.width, height: capitals.height))
        #expect(!MotionBlur.isStreak(lines), "\(lines)")
    }

    /// A small label photo (264×224, print 9 px high) turned 15° is not measured: over so few
    /// tiles its lines made a dip and an echo like a streak, and undoing that spoilt its reading.
    @Test func smallPhotosAreNotMeasured() throws {
        let original = try #require(PixImage.read(Fixtures.real("irockel_image-5.jpg"))).gray()
        let turned = try Preprocessor.rotate(original, degrees: 15)
        #expect(MotionBlur.measure(turned.grayBytes(), width: turned.width, height: turned.height) == nil)
    }

    /// Photos far too small or of odd sizes are measured without a crash.
    @Test func smallPhotosAreMeasuredSafely() {
        for (w, h) in [(1, 1), (63, 63), (64, 64), (300, 64), (64, 300), (1600, 64), (64, 1600)] {
            let bytes = [UInt8](repeating: 200, count: w * h)
            if let streak = MotionBlur.measure(bytes, width: w, height: h) { #expect(!MotionBlur.isStreak(streak)) }
            #expect(MotionBlur.deblurred(bytes, width: w, height: h,
                                         streak: .init(dx: 9, dy: 0, depth: 9, echo: 0.3)).count == w * h)
        }
    }

    /// Through the reader: a label smeared by an 11 px streak (`g0632`, gold set's hard tier)
    /// reads its codes once the streak is undone; read as it was, one of seven came through.
    @Test func printSmearedByAStreakReads() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        let result = try reader.read(imageAt: Fixtures.packageRoot + "/goldset/synth/g0632.jpg")
        #expect(result.steps.contains { $0.hasPrefix("undo motion blur") }, "\(result.steps)")
        let text = result.text.lowercased().filter { !$0.isWhitespace && $0 != "-" }
        let codes = ["e211", "e503", "e481", "e472c", "e412", "e575", "e170"]
        let read = codes.filter { text.contains($0) }
        #expect(read.count >= 5, "read \(read) of \(codes) in \(result.text)")
    }
}
