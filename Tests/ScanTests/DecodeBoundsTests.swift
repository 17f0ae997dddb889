import Foundation
import Testing

/// Photos whose decoding would cost far more than their file size says (progressive JPEGs of
/// many scans or of huge size, large PNG and 16-bit TIFF files) are refused before decoding, and
/// `scan` stays under its 300 MB bound, through the built binary. Phone photos still read.
/// The images are made at test time (ImageMagick, or `FlatJPEG` below) in the run's data folder.
@Suite struct DecodeBoundsTests {
    let scan = ScanBinary()

    /// Peak memory (MB) and CPU seconds of a run under `/usr/bin/time -f "%M %U %S"` (its last stderr line).
    static func cost(_ run: ScanBinary.Run) -> (peakMB: Double, cpu: Double)? {
        guard let last = run.stderr.split(separator: "\n").last else { return nil }
        let fields = last.split(separator: " ").compactMap { Double($0) }
        guard fields.count == 3 else { return nil }
        return (fields[0] / 1024, fields[1] + fields[2])
    }

    /// Runs `scan PHOTO --format json` under `/usr/bin/time`.
    func measured(_ photo: URL, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (run: ScanBinary.Run, peakMB: Double, cpu: Double) {
        let run = try scan.run([photo.path, "--format", "json"], timeout: 300, wrapper: ["/usr/bin/time", "-f", "%M %U %S"])
        let cost = try #require(Self.cost(run), "no /usr/bin/time line: \(run.stderr)", sourceLocation: sourceLocation)
        print("\(photo.lastPathComponent): exit \(run.status), peak \(Int(cost.peakMB)) MB, CPU \(cost.cpu) s")
        return (run, cost.peakMB, cost.cpu)
    }

    /// Makes `name` in the data folder with ImageMagick's `convert` and `arguments` (`PNG24`: as RGB).
    func convert(_ arguments: [String], to name: String, as format: String? = nil) throws -> URL {
        let out = scan.dataDir.appendingPathComponent(name)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["convert"] + arguments + [(format.map { $0 + ":" } ?? "") + out.path]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "convert \(arguments) failed")
        return out
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = scan.dataDir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// 883 scans over a 4000×4000 grey image, 64 kB: libjpeg passed over its 250,000 blocks
    /// once per scan (5 s of CPU here) and `scan` read it. Now refused after a walk of its markers.
    @Test func aJPEGOfManyScansIsRefusedBeforeDecoding() throws {
        let bomb = try write(FlatJPEG.progressive(width: 4000, height: 4000, components: 1, refinements: 13), "scans.jpg")
        _ = try scan.run(["code", "E330"])  // builds the store first: its CPU is not the photo's
        let (run, peak, cpu) = try measured(bomb)
        #expect(run.status == 10, "capture_error: \(run.stdout) \(run.stderr)")
        let error = try #require(run.jsonLines().first?["error"] as? [String: Any])
        #expect(error["class"] as? String == "capture_error")
        #expect((error["message"] as? String)?.contains("more than 100 passes") == true, "\(error)")
        #expect(cpu < 2, "CPU \(cpu) s")
        #expect(peak < 300, "peak \(peak) MB")
    }

    /// A 10000×10000 three-component progressive JPEG of 590 kB: libjpeg held its 600 MB of
    /// coefficients (at any reduction), and `scan` peaked at about 660 MB.
    @Test func aHugeProgressiveJPEGIsRefusedBeforeItsCoefficientsAreHeld() throws {
        let bomb = try write(FlatJPEG.progressive(width: 10_000, height: 10_000, components: 3, refinements: 0, bands: 5), "huge.jpg")
        let (run, peak, _) = try measured(bomb)
        #expect(run.status == 10, "capture_error: \(run.stdout) \(run.stderr)")
        let error = try #require(run.jsonLines().first?["error"] as? [String: Any])
        #expect(error["class"] as? String == "capture_error")
        #expect((error["message"] as? String)?.contains("progressive JPEG (10000×10000 pixels) is too large") == true, "\(error)")
        #expect(peak < 300, "peak \(peak) MB")
    }

    /// Within the limits: a 12 MP phone photo, baseline and progressive, reads as before, and so
    /// does a 27 MP progressive one (4:2:0, 81 MB of coefficients) of 100 scans, under 300 MB.
    @Test func phonePhotosAndLargeProgressiveOnesStillRead() throws {
        let label = ScanBinary.path("samples/candy-label.jpg")
        let baseline = try convert([label, "-resize", "4000x3000!", "-quality", "90", "-sampling-factor", "2x2"], to: "baseline12.jpg")
        let progressive = try convert([label, "-resize", "4000x3000!", "-quality", "90", "-sampling-factor", "2x2", "-interlace", "Plane"],
                                      to: "progressive12.jpg")
        for photo in [baseline, progressive] {
            let (run, peak, _) = try measured(photo)
            #expect(run.status == 0, "\(photo.lastPathComponent): \(run.stderr)")
            #expect(run.jsonLines().first?.codes.contains("E330") == true, "\(run.stdout.prefix(300))")
            #expect(peak < 300, "peak \(peak) MB")
        }
        // 1 DC scan and 99 AC scans (33 bands of 3) over 6000×4500: near both limits at once.
        let large = try write(FlatJPEG.progressive(width: 6000, height: 4500, components: 3, sampling: [(2, 2), (1, 1), (1, 1)],
                                                   refinements: 2, bands: 11), "progressive27.jpg")
        let (run, peak, cpu) = try measured(large)
        #expect(run.status == 0, "\(run.stdout.prefix(300)) \(run.stderr)")
        #expect(peak < 300, "peak \(peak) MB")
        #expect(cpu < 10, "CPU \(cpu) s")
    }

    /// A 40 MP RGB PNG and a 40 MP 16-bit RGB TIFF were decoded whole (7–8 bytes a pixel at once)
    /// and `scan` peaked at 330–400 MB. Colour PNG and TIFF now stop at 13 MP (refused before
    /// decoding); at 13 MP they read under 300 MB, also two of each in one run.
    @Test func largePNGAndTIFFStayUnderTheMemoryBound() throws {
        let png40 = try convert(["-size", "7744x5164", "xc:gray"], to: "big.png", as: "PNG24")
        let tiff40 = try convert(["-size", "7744x5164", "xc:gray", "-type", "TrueColor", "-depth", "16", "-compress", "lzw"], to: "big.tif")
        for photo in [png40, tiff40] {
            let (run, peak, _) = try measured(photo)
            #expect(run.status == 10, "\(photo.lastPathComponent): \(run.stdout.prefix(300))")
            let message = (run.jsonLines().first?["error"] as? [String: Any])?["message"] as? String
            #expect(message?.contains("under 13 megapixels") == true, "\(message ?? run.stdout)")
            #expect(peak < 300, "peak \(peak) MB")
        }
        let png13 = try convert(["-size", "4400x3000", "xc:gray"], to: "thirteen.png", as: "PNG24")
        let tiff13 = try convert(["-size", "4400x3000", "xc:gray", "-type", "TrueColor", "-depth", "16", "-compress", "lzw"], to: "thirteen.tif")
        for photo in [png13, tiff13] {
            let (run, peak, _) = try measured(photo)
            #expect(run.status == 0, "\(photo.lastPathComponent): \(run.stdout.prefix(300)) \(run.stderr)")
            #expect(peak < 300, "peak \(peak) MB")
        }
        // Read side by side in one process, they take turns to decode.
        let copies = try [png13, tiff13].map { original in
            let copy = original.deletingPathExtension().appendingPathExtension("copy." + original.pathExtension)
            try FileManager.default.copyItem(at: original, to: copy)
            return copy.path
        }
        let both = try scan.run([png13.path, tiff13.path] + copies + ["--format", "json"], timeout: 300,
                                wrapper: ["/usr/bin/time", "-f", "%M %U %S"])
        #expect(both.status == 0, "\(both.stderr)")
        let peak = try #require(Self.cost(both)).peakMB
        print("two 13 MP PNG and two 13 MP TIFF at once: peak \(Int(peak)) MB")
        #expect(peak < 300, "peak \(peak) MB")
    }

    /// A 13 MP TIFF read after two labels whose unsure readings load the other languages'
    /// engines: its decode used to run beside their recognition and those engines, and the batch
    /// peaked at 300–355 MB. Now the decode waits for room and lets the idle engines go first.
    @Test func aLargeDecodeBesideLoadedEnginesStaysUnderTheMemoryBound() throws {
        let tiff13 = try convert(["-size", "4400x3000", "xc:gray", "-type", "TrueColor", "-depth", "16", "-compress", "lzw"], to: "thirteen.tif")
        let labels = ["irockel_image-1.jpg", "dart_ingredients_coca_light_de.jpg"].map {
            ScanBinary.root.appendingPathComponent("goldset/real/" + $0).path
        }
        let batch = try scan.run(labels + [tiff13.path, "--format", "json"], timeout: 300,
                                 wrapper: ["/usr/bin/time", "-f", "%M %U %S"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let lines = batch.jsonLines()
        #expect(lines.count == 3 && lines.allSatisfy { $0["error"] == nil }, "\(batch.stdout.prefix(500))")
        let peak = try #require(Self.cost(batch)).peakMB
        print("two multilingual labels and a 13 MP TIFF at once: peak \(Int(peak)) MB")
        #expect(peak < 300, "peak \(peak) MB")
    }
}

/// Valid progressive JPEGs of a flat mid-grey picture, of any size and number of scans, in a
/// few hundred kilobytes: every coefficient is zero, so each scan is a run of empty blocks.
enum FlatJPEG {
    /// A DC scan of all components, then for each component and each of the first `bands` AC
    /// coefficients a first scan at `refinements` bits down and one refinement scan per bit.
    static func progressive(width: Int, height: Int, components: Int, sampling: [(Int, Int)]? = nil,
                            refinements: Int, bands: Int = 63) -> [UInt8] {
        let sampling = sampling ?? Array(repeating: (1, 1), count: components)
        let hmax = sampling.map(\.0).max()!, vmax = sampling.map(\.1).max()!
        var out: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ body: [UInt8]) {
            out += [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        var frame: [UInt8] = [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), UInt8(components)]
        for (c, (h, v)) in sampling.enumerated() { frame += [UInt8(c + 1), UInt8(h << 4 | v), 0] }
        segment(0xC2, frame)
        // DC table: difference 0 coded as "0". AC table: the end-of-band runs EOB0–EOB14, 4 bits each.
        segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        segment(0xC4, [0x10, 0, 0, 0, 15] + [UInt8](repeating: 0, count: 12) + (0..<15).map { UInt8($0 << 4) })
        func scan(_ comps: [Int], _ ss: Int, _ se: Int, _ ah: Int, _ al: Int, _ data: [UInt8]) {
            segment(0xDA, [UInt8(comps.count)] + comps.flatMap { [UInt8($0 + 1), 0] } + [UInt8(ss), UInt8(se), UInt8(ah << 4 | al)])
            out += data
        }
        func ceil(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
        // The DC scan: one "0" bit a block, padded with ones.
        let blocks = ceil(width, 8 * hmax) * ceil(height, 8 * vmax) * sampling.reduce(0) { $0 + $1.0 * $1.1 }
        scan(Array(0..<components), 0, 0, 0, 0,
             [UInt8](repeating: 0, count: blocks / 8) + (blocks % 8 == 0 ? [] : [UInt8((1 << (8 - blocks % 8)) - 1)]))
        for (c, (h, v)) in sampling.enumerated() {
            let data = endOfBandRuns(ceil(ceil(width * h, hmax), 8) * ceil(ceil(height * v, vmax), 8))
            for k in 1...bands {
                scan([c], k, k, 0, refinements, data)
                for al in stride(from: refinements - 1, through: 0, by: -1) { scan([c], k, k, al + 1, al, data) }
            }
        }
        return out + [0xFF, 0xD9]
    }

    /// `n` empty blocks as end-of-band runs of at most 32767, with `FF` bytes stuffed.
    static func endOfBandRuns(_ n: Int) -> [UInt8] {
        var bytes: [UInt8] = [], acc = 0, bits = 0
        func put(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) {
                acc = acc << 1 | (value >> i) & 1
                bits += 1
                if bits == 8 {
                    bytes.append(UInt8(acc))
                    if acc == 0xFF { bytes.append(0) }
                    acc = 0
                    bits = 0
                }
            }
        }
        var left = n
        while left > 0 {
            let run = min(left, 32767), r = Int.bitWidth - 1 - run.leadingZeroBitCount
            put(r, 4)
            put(run - (1 << r), r)
            left -= run
        }
        if bits > 0 { put((1 << (8 - bits)) - 1, 8 - bits) }
        return bytes
    }
}
