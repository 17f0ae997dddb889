import EcodexCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Streams lines from a file descriptor through a fixed buffer, recognises the format
/// from the first line, and hands each product's barcode and ingredients to the sink.
struct ProductLineReader {
    let sink: ProductSink
    let progress: ((ProductImportProgress) -> Void)?
    let totalBytes: Int64?

    private(set) var format: ProductFileFormat?
    private(set) var lines = 0
    private(set) var imported = 0
    private(set) var skippedBarcode = 0
    private(set) var skippedIngredients = 0
    private(set) var skippedUnreadable = 0
    private(set) var bytes: Int64 = 0

    /// Columns of a CSV header: the barcode, then ingredient columns best first.
    private var codeColumn = -1
    private var ingredientColumns: [Int] = []
    private var lastNeededColumn = 0
    private var isFirstLine = true
    /// Reused buffers: unescaped ingredient text, the canonical barcode, CSV field ranges.
    private var scratch: [UInt8] = []
    private var key = [UInt8](repeating: 0, count: 16)
    private var fieldRanges: [Range<Int>] = []

    init(sink: ProductSink, progress: ((ProductImportProgress) -> Void)?, totalBytes: Int64?) {
        self.sink = sink
        self.progress = progress
        self.totalBytes = totalBytes
        scratch.reserveCapacity(64 * 1024)
    }

    mutating func run(fd: Int32) throws {
        let size = ProductImporter.bufferBytes
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []
        var overlong = false
        while true {
            let n = read(fd, buffer.baseAddress, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportError.readFailed(reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            bytes += Int64(n)
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var start = 0
            while start < n, let hit = memchr(base + start, 0x0A, n - start) {
                let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if carry.isEmpty && !overlong {
                    try line(UnsafeBufferPointer(start: base + start, count: end - start))
                } else {
                    if !overlong && carry.count + (end - start) <= ProductImporter.maxLineBytes {
                        carry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                        try carry.withUnsafeBufferPointer { try line($0) }
                    } else {
                        lines += 1
                        skippedUnreadable += 1
                    }
                    carry.removeAll(keepingCapacity: carry.capacity <= 1 << 20)
                    overlong = false
                }
                start = end + 1
            }
            if start < n {
                if !overlong && carry.count + (n - start) <= ProductImporter.maxLineBytes {
                    carry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: n - start))
                } else {
                    // A first line this long is no export's header or record (`/dev/zero`, a
                    // binary file): stop now instead of reading to an end that may never come.
                    if isFirstLine {
                        throw ImportError.firstLineTooLong(limit: ProductImporter.maxLineBytes)
                    }
                    overlong = true
                    carry.removeAll()
                }
            }
        }
        if overlong {
            lines += 1
            skippedUnreadable += 1
        } else if !carry.isEmpty {
            try carry.withUnsafeBufferPointer { try line($0) }
        }
        if isFirstLine {
            throw ImportError.empty
        }
        progress?(ProductImportProgress(bytes: bytes, totalBytes: totalBytes, lines: lines))
    }

    private mutating func line(_ raw: UnsafeBufferPointer<UInt8>) throws {
        var p = raw
        if let last = p.last, last == 0x0D { p = UnsafeBufferPointer(rebasing: p.dropLast()) }
        if isFirstLine {
            if p.count >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { p = UnsafeBufferPointer(rebasing: p.dropFirst(3)) }
            if p.allSatisfy(Self.isSpace) { return }
            isFirstLine = false
            if p.count >= 2, p[0] == 0x1F, p[1] == 0x8B {
                throw ImportError.compressed
            }
            if let first = p.first(where: { !Self.isSpace($0) }), first == UInt8(ascii: "{") {
                format = .jsonl
            } else {
                try header(p)
                return
            }
        }
        if p.isEmpty { return }
        lines += 1
        if lines & 8191 == 0 {
            progress?(ProductImportProgress(bytes: bytes, totalBytes: totalBytes, lines: lines))
        }
        switch format {
        case .jsonl: try jsonLine(p)
        case .tsv, .csv: try csvLine(p)
        case nil: break
        }
    }

    // MARK: - JSON Lines

    private mutating func jsonLine(_ p: UnsafeBufferPointer<UInt8>) throws {
        var code: JSONScan.Value?
        var ingredients: [JSONScan.Value?] = [nil, nil, nil]
        let ok = JSONScan.topLevel(p) { key, value in
            switch JSONScan.classify(key, in: p) {
            case .code: code = value
            case .ingredients: ingredients[0] = value
            case .ingredientsEnglish: ingredients[1] = value
            case .ingredientsOther: if ingredients[2] == nil || ingredients[2]!.range.isEmpty { ingredients[2] = value }
            case .other: break
            }
        }
        guard ok else { skippedUnreadable += 1; return }
        guard let code, let keyCount = canonicalBarcode(p, code.range) else { skippedBarcode += 1; return }
        guard let text = ingredients.first(where: { $0.map { $0.isString && Self.hasText(p, $0.range) } ?? false }) ?? nil else {
            skippedIngredients += 1
            return
        }
        try store(p, keyCount: keyCount, text: text.range, escaped: text.escaped)
    }

    // MARK: - CSV

    private mutating func header(_ p: UnsafeBufferPointer<UInt8>) throws {
        let tab = p.contains(0x09)
        format = tab ? .tsv : .csv
        split(p, all: true)
        let names = fieldRanges.map { r in
            String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).lowercased()
        }
        codeColumn = names.firstIndex(of: "code") ?? names.firstIndex(of: "barcode") ?? -1
        var columns: [Int] = []
        if let i = names.firstIndex(of: "ingredients_text") { columns.append(i) }
        if let i = names.firstIndex(of: "ingredients_text_en") { columns.append(i) }
        for (i, n) in names.enumerated() where n.count == 19 && n.hasPrefix("ingredients_text_") && !columns.contains(i) {
            columns.append(i)
        }
        guard codeColumn >= 0, !columns.isEmpty else {
            throw ImportError.notAnExport
        }
        ingredientColumns = columns
        lastNeededColumn = ([codeColumn] + columns).max()!
    }

    private mutating func csvLine(_ p: UnsafeBufferPointer<UInt8>) throws {
        split(p)
        guard fieldRanges.count > codeColumn, let keyCount = canonicalBarcode(p, unquoted(p, fieldRanges[codeColumn]).range)
        else { skippedBarcode += 1; return }
        for column in ingredientColumns where column < fieldRanges.count {
            let field = unquoted(p, fieldRanges[column])
            if Self.hasText(p, field.range) {
                try store(p, keyCount: keyCount, text: field.range, escaped: false, csvQuoted: field.quoted)
                return
            }
        }
        skippedIngredients += 1
    }

    /// Splits a CSV line into field ranges (up to the last column needed). Tab-separated
    /// files split on every tab (OFF's export has no quoting); comma-separated ones honour
    /// double quotes.
    private mutating func split(_ p: UnsafeBufferPointer<UInt8>, all: Bool = false) {
        fieldRanges.removeAll(keepingCapacity: true)
        let limit = all ? Int.max : lastNeededColumn
        var start = 0
        if format == .tsv {
            let base = p.baseAddress!
            while fieldRanges.count <= limit {
                if start >= p.count { fieldRanges.append(start..<start); break }
                if let hit = memchr(base + start, 0x09, p.count - start) {
                    let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    fieldRanges.append(start..<end)
                    start = end + 1
                } else {
                    fieldRanges.append(start..<p.count)
                    break
                }
            }
            return
        }
        var i = 0
        var quoted = false
        while i < p.count {
            let c = p[i]
            if quoted {
                if c == 0x22 {
                    if i + 1 < p.count && p[i + 1] == 0x22 { i += 1 } else { quoted = false }
                }
            } else if c == 0x22 && i == start {
                quoted = true
            } else if c == UInt8(ascii: ",") {
                fieldRanges.append(start..<i)
                if fieldRanges.count > limit { return }
                start = i + 1
            }
            i += 1
        }
        fieldRanges.append(start..<p.count)
    }

    /// A field without its surrounding double quotes.
    private func unquoted(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> (range: Range<Int>, quoted: Bool) {
        if r.count >= 2, p[r.lowerBound] == 0x22, p[r.upperBound - 1] == 0x22 {
            return ((r.lowerBound + 1)..<(r.upperBound - 1), true)
        }
        return (r, false)
    }

    // MARK: - Rows

    /// Writes the canonical barcode (its first `keyCount` bytes are in `key`) and the text.
    private mutating func store(_ p: UnsafeBufferPointer<UInt8>, keyCount: Int, text: Range<Int>, escaped: Bool,
                                csvQuoted: Bool = false) throws {
        let slice = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(p)[text])
        if escaped || csvQuoted {
            scratch.removeAll(keepingCapacity: true)
            if escaped {
                JSONScan.unescape(UnsafeBufferPointer(rebasing: p[text]), into: &scratch)
            } else {
                // "" inside a quoted CSV field is one quote.
                var i = text.lowerBound
                while i < text.upperBound {
                    scratch.append(p[i])
                    i += p[i] == 0x22 && i + 1 < text.upperBound && p[i + 1] == 0x22 ? 2 : 1
                }
            }
            let trimmed = Self.trimmed(scratch)
            try key.withUnsafeBytes { k in
                try scratch.withUnsafeBytes { s in
                    try sink.add(barcode: UnsafeRawBufferPointer(rebasing: k[0..<keyCount]),
                                 ingredients: UnsafeRawBufferPointer(rebasing: s[trimmed]))
                }
            }
        } else {
            let trimmed = Self.trimmed(slice)
            try key.withUnsafeBytes { k in
                try sink.add(barcode: UnsafeRawBufferPointer(rebasing: k[0..<keyCount]),
                             ingredients: UnsafeRawBufferPointer(rebasing: slice[trimmed]))
            }
        }
        imported += 1
    }

    /// Puts the canonical GTIN key of the digits in `r` (`GTIN.canonicalKey`, the one owner
    /// of the rule) into `key` and returns its length, or nil when they are not a valid barcode.
    private mutating func canonicalBarcode(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi, Self.isSpace(p[lo]) { lo += 1 }
        while hi > lo, Self.isSpace(p[hi - 1]) { hi -= 1 }
        return GTIN.canonicalKey(ascii: UnsafeBufferPointer(rebasing: p[lo..<hi]), into: &key)
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A }

    static func hasText(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        for i in r where !isSpace(p[i]) { return true }
        return false
    }

    static func trimmed<C: RandomAccessCollection>(_ c: C) -> Range<Int> where C.Element == UInt8, C.Index == Int {
        var lo = c.startIndex, hi = c.endIndex
        while lo < hi, isSpace(c[lo]) { lo += 1 }
        while hi > lo, isSpace(c[hi - 1]) { hi -= 1 }
        return lo..<hi
    }
}
