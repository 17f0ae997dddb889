import Testing
@testable import EcodexVision

/// The sharpness a burst ranks its frames by: blurred frames score lower than sharp ones of
/// the same label, so the time limit leaves the blurred ones unread.
@Suite struct FrameSharpnessTests {
    /// Black and white bars 4 px wide, `blur` px box-blurred along the rows.
    static func bars(blur: Int, width: Int = 64, height: Int = 32) -> [UInt8] {
        let sharp = (0..<(width * height)).map { i -> Int in (i % width / 4) % 2 == 0 ? 0 : 255 }
        return (0..<(width * height)).map { i in
            let x = i % width, row = i - x
            let lo = max(0, x - blur / 2), hi = min(width - 1, x + blur / 2)
            return UInt8((lo...hi).map { sharp[row + $0] }.reduce(0, +) / (hi - lo + 1))
        }
    }

    @Test func blurLowersTheScore() {
        let scores = [0, 3, 5, 7].map { FrameSharpness.score(Self.bars(blur: $0), width: 64, height: 32) }
        #expect(scores == scores.sorted(by: >), "\(scores)")
        #expect(scores[0] > scores[3] * 2, "\(scores)")
    }

    @Test func aFlatOrTinyImageScoresZero() {
        #expect(FrameSharpness.score([UInt8](repeating: 128, count: 64 * 32), width: 64, height: 32) == 0)
        #expect(FrameSharpness.score([0, 255, 0, 255], width: 2, height: 2) == 0)
        #expect(FrameSharpness.score([0, 255], width: 64, height: 32) == 0, "bytes that do not fill the size")
    }

    /// Only the text blocks count: sharp bars in the left half, flat gray in the right.
    @Test func onlyTheAreasGivenAreMeasured() {
        let bars = Self.bars(blur: 0)
        let half = (0..<(64 * 32)).map { i in i % 64 < 32 ? bars[i] : 128 }
        let left = FrameSharpness.Area(x: 0, y: 0, width: 32, height: 32)
        let right = FrameSharpness.Area(x: 34, y: 0, width: 30, height: 32)  // clear of the bars' last column
        #expect(FrameSharpness.score(half, width: 64, height: 32, in: [left]) > 0)
        #expect(FrameSharpness.score(half, width: 64, height: 32, in: [right]) == 0)
        #expect(FrameSharpness.score(half, width: 64, height: 32, in: [FrameSharpness.Area(x: 90, y: 0, width: 9, height: 9)]) == 0,
                "an area outside the image")
    }

    @Test(arguments: [
        ([2.0, 9.0, 5.0], [1, 2, 0]),
        // Ties keep the order given; a frame that could not be measured comes last.
        ([nil, 3.0, 3.0, 1.0], [1, 2, 3, 0]),
        ([], []),
    ] as [([Double?], [Int])])
    func sharpestFirst(_ scores: [Double?], _ order: [Int]) {
        #expect(FrameSharpness.sharpestFirst(scores) == order)
    }

    /// A real phone frame (the gold set's `g0589`, a label in a hand) scores lower blurred: the
    /// text blocks the reader finds are measured, the same ones in both.
    @Test func blurLowersTheScoreOfARealFrame() throws {
        let gray = try ImageLoader.load(Fixtures.packageRoot + "/goldset/synth/g0589.jpg").gray()
        let blocks = TextRegions.find(gray).map { FrameSharpness.Area(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        #expect(!blocks.isEmpty, "a phone frame has text blocks")
        let w = gray.width, h = gray.height, bytes = gray.grayBytes()
        // A 3×3 box blur, edges left as they are.
        var blurred = bytes
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                var sum = 0
                for dy in -1...1 { for dx in -1...1 { sum += Int(bytes[(y + dy) * w + x + dx]) } }
                blurred[y * w + x] = UInt8(sum / 9)
            }
        }
        let sharp = FrameSharpness.score(bytes, width: w, height: h, in: blocks)
        let soft = FrameSharpness.score(blurred, width: w, height: h, in: blocks)
        #expect(soft < 0.8 * sharp, "sharp \(sharp), blurred \(soft)")
    }
}

/// The order a burst reads its frames in when time is short.
@Suite struct BurstOrderTests {
    static func frame(_ id: String) -> String { Fixtures.packageRoot + "/goldset/synth/\(id).jpg" }

    /// The first frame is read first, as a single photo; the others sharpest first, so a blurred
    /// frame given second waits behind a sharp one given last. `g0588-b4` scores lowest of its
    /// burst (its print the softest) and `g0588` highest.
    @Test func theFirstFrameThenTheSharpest() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        let paths = ["g0588-b1", "g0588-b4", "g0588-b2", "g0588"].map(Self.frame)
        let order = reader.burstOrder(paths)
        #expect(order.first == 0)
        #expect(order.dropFirst().first == 3, "the sharpest of the others next: \(order)")
        #expect(order.last == 1, "the softest last: \(order)")
        #expect(reader.burstOrder(Array(paths.prefix(2))) == [0, 1])
        #expect(reader.burstOrder([]).isEmpty)
    }

    /// A frame that cannot be decoded is read last (its reading then says why).
    @Test func anUndecodableFrameComesLast() throws {
        let reader = try TesseractLabelReader(languages: ["eng"])
        let paths = [Self.frame("g0588"), "/nonexistent/frame.jpg", Self.frame("g0588-b2")]
        #expect(reader.burstOrder(paths) == [0, 2, 1])
    }
}
