/// A built parser saved as bytes, so a process loads its name index instead of building it.
///
/// Building the name index (trie, vocabulary, one-deletion table for fuzzy words) takes tens
/// of milliseconds for the shipped lexicon, and every `scan` needs it; reading it back is one
/// file read and a few copies. The image carries:
///
/// - a header: magic, `formatVersion`, a fingerprint of the parser's own tables (class words,
///   stop words: data compiled into the program, so a new program with new class words never
///   trusts an old image), and a `stamp` the caller chooses to name the lexicon's source (the
///   store passes its pack and data versions, build time and file identity);
/// - the payload, with its length and a 64-bit checksum.
///
/// `decode` returns nil, never a parser, when anything does not match: wrong magic, format,
/// fingerprint or stamp (stale), a bad length, checksum or index inside the tables (damaged).
/// Bump `formatVersion` when `NameIndex` changes how it builds keys or lays out its tables.
public enum ParserImage {
    static let magic: [UInt8] = Array("ECDXPIX\u{1}".utf8)
    static let formatVersion: UInt32 = 1

    /// Encodes `parser`, stamped with `stamp`.
    public static func encode(_ parser: IngredientParser, stamp: String) -> [UInt8] {
        var codes = CodeTable()
        for c in parser.index.codes { _ = codes.id(c) }
        let known = parser.knownCodes.sorted()
        let functionCodes = parser.functions.keys.sorted()
        for c in known + functionCodes { _ = codes.id(c) }
        var body = ByteWriter()
        codes.write(to: &body)
        parser.index.write(to: &body, codes: &codes)
        body.int32s(known.map { codes.id($0) })
        body.int32s(functionCodes.map { codes.id($0) })
        body.int32s(functionCodes.map { Int32(parser.functions[$0]!.count) })
        body.strings(functionCodes.flatMap { parser.functions[$0]! })

        var out = ByteWriter()
        out.bytes += magic
        out.uint32(formatVersion)
        out.uint64(fingerprint)
        out.strings([stamp])
        out.uint64(UInt64(body.bytes.count))
        out.uint64(checksum(body.bytes[...]))
        out.bytes += body.bytes
        return out.bytes
    }

    /// The parser in `image`, or nil when the image is stale (another stamp, format or
    /// program) or damaged (truncated, checksum, an index out of range).
    public static func decode(_ image: [UInt8], stamp: String) -> IngredientParser? {
        var r = ByteReader(image[...])
        guard let m = r.raw(magic.count), Array(m) == magic, r.uint32() == formatVersion,
              r.uint64() == fingerprint, r.strings() == [stamp],
              let length = r.uint64(), let sum = r.uint64(), length == UInt64(r.remaining),
              let body = r.raw(Int(length)), checksum(body) == sum else { return nil }
        var p = ByteReader(body)
        guard let codes = CodeTable.read(from: &p), let index = NameIndex(reading: &p, codes: codes),
              let knownIDs = p.int32s(), let functionCodeIDs = p.int32s(),
              let functionCounts = p.int32s(), let functionNames = p.strings(), p.remaining == 0 else { return nil }
        func code(_ id: Int32) -> ECode? { id >= 0 && Int(id) < codes.count ? codes[Int(id)] : nil }
        var known = Set<ECode>()
        for id in knownIDs {
            guard let c = code(id) else { return nil }
            known.insert(c)
        }
        guard functionCodeIDs.count == functionCounts.count,
              functionCounts.allSatisfy({ $0 >= 0 }),
              functionCounts.reduce(0, { $0 + Int($1) }) == functionNames.count else { return nil }
        var functions: [ECode: [String]] = [:]
        var next = 0
        for (id, n) in zip(functionCodeIDs, functionCounts) {
            guard let c = code(id) else { return nil }
            functions[c] = Array(functionNames[next..<next + Int(n)])
            next += Int(n)
        }
        return IngredientParser(index: index, knownCodes: known, functions: functions)
    }

    /// What in the program decides the index besides the lexicon: the class and nutrient
    /// phrases and the words keys drop. An image made by a program with other tables is stale.
    static let fingerprint: UInt64 = {
        var w = ByteWriter()
        w.uint32(formatVersion)
        for row in FunctionClasses.table { w.strings([row.id] + row.phrases) }
        w.strings(FunctionClasses.nutrientPhrases)
        for h in NameIndex.stopWords + NameIndex.numberMarks { w.uint64(h) }
        w.int32s([Int32(NameIndex.fuzzyMinLength), Int32(NameIndex.twoSlipMinLength)])
        return checksum(w.bytes[...])
    }()

    /// A 64-bit checksum, eight bytes at a step: finds damage, not forgery (whoever can
    /// write the data folder can write the store too).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words {
                let v = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                h = (h ^ v) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 32
            }
            for i in (words * 8)..<raw.count {
                h = (h ^ UInt64(raw[i])) &* 0xC4CE_B9FE_1A85_EC53
            }
        }
        h ^= h >> 33
        return h &* 0xFF51_AFD7_ED55_8CCD
    }
}

/// Codes by number, so the index stores small integers instead of code text.
struct CodeTable {
    private(set) var codes: [ECode] = []
    private var ids: [ECode: Int32] = [:]

    var count: Int { codes.count }
    subscript(i: Int) -> ECode { codes[i] }

    mutating func id(_ code: ECode) -> Int32 {
        if let id = ids[code] { return id }
        let id = Int32(codes.count)
        codes.append(code)
        ids[code] = id
        return id
    }

    func write(to w: inout ByteWriter) {
        w.int32s(codes.map { Int32($0.number) })
        w.int32s(codes.map { Int32(bitPattern: $0.letter?.unicodeScalars.first?.value ?? 0) })
        w.strings(codes.map { $0.roman ?? "" })
    }

    static func read(from r: inout ByteReader) -> CodeTable? {
        guard let numbers = r.int32s(), let letters = r.int32s(), let romans = r.strings(),
              numbers.count == letters.count, numbers.count == romans.count else { return nil }
        var table = CodeTable()
        for i in numbers.indices {
            var letter: Character?
            if letters[i] != 0 {
                guard let s = Unicode.Scalar(UInt32(bitPattern: letters[i])) else { return nil }
                letter = Character(s)
            }
            let code = ECode(number: Int(numbers[i]), letter: letter, roman: romans[i].isEmpty ? nil : romans[i])
            table.codes.append(code)
        }
        return table
    }
}

/// Little-endian arrays with a count in front.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func uint32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func uint64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }

    mutating func array<T: FixedWidthInteger>(_ values: [T]) {
        uint64(UInt64(values.count))
        for v in values { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    }

    mutating func int32s(_ values: [Int32]) { array(values) }

    mutating func strings(_ values: [String]) {
        uint64(UInt64(values.count))
        for s in values {
            uint32(UInt32(s.utf8.count))
            bytes += s.utf8
        }
    }
}

/// Reads what `ByteWriter` wrote; every read checks it stays inside the bytes.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func raw(_ n: Int) -> ArraySlice<UInt8>? {
        guard n >= 0, n <= remaining else { return nil }
        defer { position += n }
        return bytes[position..<position + n]
    }

    mutating func uint32() -> UInt32? { scalar(UInt32.self) }
    mutating func uint64() -> UInt64? { scalar(UInt64.self) }

    private mutating func scalar<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard let b = raw(MemoryLayout<T>.size) else { return nil }
        return T(littleEndian: b.withUnsafeBytes { $0.loadUnaligned(as: T.self) })
    }

    /// An array written by `ByteWriter.array`, copied in one go (the machine is little-endian
    /// wherever Swift on Linux runs; the loop below is for the others).
    mutating func array<T: FixedWidthInteger>(_: T.Type) -> [T]? {
        guard let n = uint64(), n <= UInt64(remaining / MemoryLayout<T>.size),
              let b = raw(Int(n) * MemoryLayout<T>.size) else { return nil }
        let values = [T](unsafeUninitializedCapacity: Int(n)) { buffer, count in
            b.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
            count = Int(n)
        }
        #if _endian(big)
        return values.map { T(littleEndian: $0) }
        #else
        return values
        #endif
    }

    mutating func int32s() -> [Int32]? { array(Int32.self) }

    mutating func strings() -> [String]? {
        guard let n = uint64(), n <= UInt64(remaining / 4) else { return nil }
        var out: [String] = []
        out.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let length = uint32(), let b = raw(Int(length)) else { return nil }
            out.append(String(decoding: b, as: UTF8.self))
        }
        return out
    }
}
