import Foundation
import Testing

/// Issue 16, items 12–14 and the barcode rule, through the `scan` binary: inputs that are
/// not regular files, decompression amplification, standard input, and barcode keys.
/// Every run is bounded (a hang is killed and recorded), and memory and CPU seconds are
/// measured with `/usr/bin/time`; nothing asserts wall-clock time, which a busy machine stretches.
@Suite struct InputLimitsTests {
    let scan = ScanBinary()

    /// A FIFO nobody writes to: reading it blocks forever.
    func fifo(_ name: String) throws -> String {
        let path = scan.dataDir.appendingPathComponent(name).path
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    /// Runs `scan` under `/usr/bin/time`, which adds the CPU seconds it used to standard error.
    static let cpuTime = ["/usr/bin/time", "-f", "%U %S"]

    /// User plus system CPU seconds of a run under `cpuTime`: unlike the wall clock, a busy
    /// machine does not raise it, so a quadratic blow-up is told from a slow machine.
    static func cpuSeconds(_ run: ScanBinary.Run) -> Double? {
        let parts = run.stderr.split(separator: "\n").last?.split(separator: " ").compactMap { Double($0) } ?? []
        return parts.count == 2 ? parts[0] + parts[1] : nil
    }

    @Test func namedPipesAndDevicesAreRefusedNotRead() throws {
        let photo = try fifo("label.jpg"), pack = try fifo("x.pack"), list = try fifo("products.jsonl"), key = try fifo("k.key")
        let cases: [([String], Int32)] = [
            ([photo], 10), ([photo, "--format", "json"], 10), (["barcode", photo], 10), (["burst", photo, photo], 10),
            (["pack", "apply", pack], 15), (["pack", "verify", pack], 15), (["update", pack], 15),
            (["products", "import", list], 15), (["products", "import", "/dev/zero"], 15), (["pack", "apply", "/dev/zero"], 15),
            (["pack", "verify", ScanBinary.path("README.md"), "--trusted", key], 15),
        ]
        for (arguments, code) in cases {
            let run = try scan.run(arguments, timeout: 120)
            #expect(run.status == code, "scan \(arguments.joined(separator: " ")): \(run.status) \(run.stderr)")
            let said = run.stderr + run.stdout
            #expect(said.contains("not a") || said.contains("regular file"), "\(arguments): \(run.stderr)")
        }
    }

    @Test func anImportOnStandardInputWithoutLinesEnds() throws {
        // /dev/zero piped in, without end: no newline ever comes; the first line's bound ends it.
        let pipe = ["/bin/sh", "-c", "cat /dev/zero | \"$0\" \"$@\""]
        let run = try scan.run(["products", "import", "-"], timeout: 60, wrapper: pipe)
        #expect(run.status == 12, "parse_error: \(run.stderr)")
    }

    /// A valid PNG of `width`×`height` white gray pixels, its pixels in stored (uncompressed)
    /// deflate blocks: no zlib needed.
    static func png(width: Int, height: Int) -> Data {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be32(UInt32(body.count)) + typed + be32(crc32(typed))
        }
        var raw: [UInt8] = []
        for _ in 0..<height { raw += [0] + [UInt8](repeating: 255, count: width) }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            let last: UInt8 = offset + n == raw.count ? 1 : 0
            zlib += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)] + raw[offset..<(offset + n)]
            offset += n
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for x in raw { a = (a + UInt32(x)) % 65_521; b = (b + a) % 65_521 }
        zlib += be32(b << 16 | a)
        let ihdr = be32(UInt32(width)) + be32(UInt32(height)) + [8, 0, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    @Test(arguments: [(20_000, 1), (1, 20_000), (20_000, 40)])
    func aThinImageIsRefusedBeforeItCostsAnything(width: Int, height: Int) throws {
        let file = scan.dataDir.appendingPathComponent("thin-\(width)x\(height).png")
        try Self.png(width: width, height: height).write(to: file)
        for arguments in [[file.path, "--format", "json"], ["barcode", file.path, "--format", "json"]] {
            let run = try scan.run(arguments, timeout: 60, wrapper: ["/usr/bin/time", "-f", "%M"])
            #expect(run.status == 10, "capture_error for \(arguments): \(run.stdout) \(run.stderr)")
            #expect(run.jsonLines().first?.errorClass == "capture_error")
            let peak = try #require(NetworkRulesTests.peakMB(run))
            print("\(width)×\(height) PNG, \(arguments[0]): peak \(Int(peak)) MB")
            #expect(peak < 150, "\(arguments): peak \(peak) MB")
        }
    }

    @Test func standardInputIsBoundedAndMemoryStaysSmall() throws {
        // 10 MB of ingredient-like text: refused as a parse_error, without reading it all.
        let line = "Sugar, glucose syrup, colours: E102, E129, acid: citric acid, "
        let tenMB = Data(String(repeating: line, count: 10_000_000 / line.utf8.count).utf8)
        let big = try scan.run(["text", "-", "--format", "json"], stdin: tenMB, timeout: 60, wrapper: ["/usr/bin/time", "-f", "%M"])
        #expect(big.status == 12, "parse_error: \(big.stderr)")
        #expect(big.jsonLines().first?.errorClass == "parse_error")
        // Just under the documented 100 kB limit: read, and memory stays small.
        let atLimit = Data(String(repeating: line, count: 99_000 / line.utf8.count).utf8)
        let ok = try scan.run(["text", "-", "--format", "json"], stdin: atLimit, timeout: 120, wrapper: ["/usr/bin/time", "-f", "%M"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.jsonLines().first?.codes.contains("E102") == true)
        for (run, name) in [(big, "10 MB"), (ok, "at the limit")] {
            let peak = try #require(NetworkRulesTests.peakMB(run))
            print("scan text -, \(name): peak \(Int(peak)) MB")
            #expect(peak < 100, "\(name): peak \(peak) MB")
        }
    }

    /// One code repeated to the 100 kB limit (a fuzzed text, seed 1919): one card, in a moment.
    /// Grouping the mentions into cards once compared every mention with every other: 14,000
    /// mentions took 29 s of CPU, past the fuzz harness's 10 s bound.
    @Test func aCodeRepeatedToTheLimitGivesOneCardWithoutStalling() throws {
        let storm = Data(("Ingredienti: zucchero, " + String(repeating: "E 102, ", count: 14_000)).utf8.prefix(99_000))
        let run = try scan.run(["text", "-", "--format", "json"], stdin: storm, timeout: 120, wrapper: Self.cpuTime)
        #expect(run.status == 0, "\(run.stderr)")
        let cpu = try #require(Self.cpuSeconds(run))
        #expect(cpu < 5, "\(cpu) s of CPU")
        #expect(run.jsonLines().first?.codes == ["E102"])
    }

    /// Unclosed brackets closed much later make nested items that span most of the text; the
    /// packaging rule looked at every item's tokens (quadratic: 20 s of CPU for these 42 kB in a
    /// debug build, found by `scripts/fuzz.py` seed 1872675997605295183). With and without
    /// packaging words, so both of the rule's paths run.
    @Test(arguments: ["", "BHT added to packaging material. "])
    func aStormOfBracketsEndsWithoutStalling(head: String) throws {
        let storm = head + "Calcium phosphateum phosp" + String(repeating: ")", count: 9_300) + String(repeating: "[", count: 20_000)
            + String(repeating: ")", count: 12_660) + " phosphateum phosphate"
        let run = try scan.run(["text", "-", "--format", "json"], stdin: Data(storm.utf8), timeout: 120, wrapper: Self.cpuTime)
        #expect(run.status == 0, "\(run.stderr)")
        let cpu = try #require(Self.cpuSeconds(run))
        #expect(cpu < 5, "\(cpu) s of CPU")
        #expect(run.jsonLines().count == 1)
    }

    @Test func typedBarcodesFindImportedProductsInEveryPaddingAndLength() throws {
        let export = """
            {"code":"96385074","ingredients_text":"Sugar, colour: E102"}
            {"code":"4006381333931","ingredients_text":"Sugar, colour: E129"}

            """
        _ = try importProducts(scan, export)
        for (typed, code) in [("96385074", "E102"), ("0000096385074", "E102"), ("00000096385074", "E102"),
                              ("4006381333931", "E129"), ("04006381333931", "E129"), ("4006-3813-3393-1", "E129")] {
            let run = try scan.run(["barcode", typed, "--format", "json"])
            #expect(run.status == 0, "scan barcode \(typed): \(run.stdout)")
            #expect(run.jsonLines().first?.codes == [code], "scan barcode \(typed)")
        }
        #expect(try scan.run(["barcode", "4006381333932"]).status == 12, "a wrong check digit is a parse_error")
    }
}
