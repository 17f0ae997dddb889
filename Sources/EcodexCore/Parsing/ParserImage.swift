#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A built parser saved as bytes, so a process maps its name index instead of building it.
///
/// Building the name index (trie, vocabulary, one-deletion table for fuzzy words) takes tens
/// of milliseconds for the shipped lexicon. A parser's tables always live in one flat block of
/// bytes (`ParserImage.Bytes`), built in memory or mapped from a file, and the index reads
/// them where they lie: loading an image is an `mmap`, a checksum and a bounds check of every
/// index-carrying table, with no copy of the large tables. Only the few hundred codes and
/// function names are decoded into Swift values.
///
/// File layout (little-endian):
///
///     0   magic "ECDXPIX\u{2}"
///     8   formatVersion  u32      12  section count u32
///     16  fingerprint    u64      (the program and its compiled-in tables)
///     24  stamp length   u32      28  zero u32
///     32  payload length u64      40  checksum u64 of every byte from 48 on
///     48  stamp (UTF-8), zero-padded to 8
///         payload: section directory (offset u64, byte count u64 per section, offsets
///         from the payload start), then the sections, each 8-aligned.
///
/// `load` and `decode` return nil, never a parser, when anything does not match: wrong magic,
/// format, fingerprint or stamp (stale), a bad length, checksum or table (damaged).
/// Bump `formatVersion` when `NameIndex` changes the layout of its tables.
public enum ParserImage {
    static let magic: [UInt8] = Array("ECDXPIX\u{2}".utf8)
    static let formatVersion: UInt32 = 2
    static let headerSize = 48

    /// An immutable, 8-aligned block of bytes that stays put while any parser reads it:
    /// heap memory for a parser built in this process, a read-only file mapping for a loaded one.
    final class Bytes: @unchecked Sendable {
        let base: UnsafeRawPointer
        let count: Int
        private let mapped: Bool

        /// `count` heap bytes, filled by `fill`.
        init(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) {
            let p = UnsafeMutableRawPointer.allocate(byteCount: max(count, 8), alignment: 16)
            fill(UnsafeMutableRawBufferPointer(start: p, count: count))
            base = UnsafeRawPointer(p)
            self.count = count
            mapped = false
        }

        /// A heap copy of `bytes`.
        convenience init(copying bytes: UnsafeRawBufferPointer) {
            self.init(count: bytes.count) { out in
                if bytes.count > 0 { out.copyMemory(from: bytes) }
            }
        }

        /// The whole file at `path`, mapped read-only; nil on any error. The writers replace
        /// the file by renaming a new one over it, so the mapped file never changes under us.
        init?(mapping path: String) {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  info.st_size >= Int64(ParserImage.headerSize), info.st_size < 1 << 30 else { return nil }
            let size = Int(info.st_size)
            // Every page is read at once (the checksum), so fault them in with one call.
            #if os(Linux)
            let flags = MAP_PRIVATE | MAP_POPULATE
            #else
            let flags = MAP_PRIVATE
            #endif
            guard let p = mmap(nil, size, PROT_READ, flags, fd, 0), p != MAP_FAILED else { return nil }
            base = UnsafeRawPointer(p)
            count = size
            mapped = true
        }

        var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

        deinit {
            if mapped {
                munmap(UnsafeMutableRawPointer(mutating: base), count)
            } else {
                UnsafeMutableRawPointer(mutating: base).deallocate()
            }
        }
    }

    // MARK: Saving

    /// The file for `parser`, stamped with `stamp`, as one array.
    public static func encode(_ parser: IngredientParser, stamp: String) -> [UInt8] {
        withEncoded(parser, stamp: stamp) { head, payload in head + payload }
    }

    /// The file for `parser` in two parts, header (with the stamp) and payload, without
    /// copying the payload: write them one after the other.
    public static func withEncoded<T>(_ parser: IngredientParser, stamp: String,
                                      _ body: ([UInt8], UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let payload = parser.index.tables.payload
        let stampBytes = Array(stamp.utf8)
        let stampPadded = (stampBytes.count + 7) & ~7
        var head = [UInt8]()
        head.reserveCapacity(headerSize + stampPadded)
        head += magic
        append(&head, formatVersion)
        append(&head, UInt32(NameTables.Section.allCases.count))
        append(&head, fingerprint)
        append(&head, UInt32(stampBytes.count))
        append(&head, UInt32(0))
        append(&head, UInt64(payload.count))
        append(&head, UInt64(0))  // checksum, filled below
        head += stampBytes
        head += [UInt8](repeating: 0, count: stampPadded - stampBytes.count)
        var sum = Checksum(count: head.count - headerSize + payload.count)
        head.withUnsafeBytes { sum.add(UnsafeRawBufferPointer(rebasing: $0[headerSize...])) }
        sum.add(payload)
        withUnsafeBytes(of: sum.value.littleEndian) { head.replaceSubrange(40..<48, with: $0) }
        return try body(head, payload)
    }

    static func append<T: FixedWidthInteger>(_ out: inout [UInt8], _ v: T) {
        withUnsafeBytes(of: v.littleEndian) { out += $0 }
    }

    // MARK: Loading

    /// The parser in the file at `path`, read in place from a read-only mapping; nil when the
    /// file is missing, stale or damaged (see the type's doc).
    public static func load(path: String, stamp: String) -> IngredientParser? {
        guard let bytes = Bytes(mapping: path) else { return nil }
        return decode(bytes, stamp: stamp)
    }

    /// The parser in `image` (a copy is made, for tests and tools); nil when stale or damaged.
    public static func decode(_ image: [UInt8], stamp: String) -> IngredientParser? {
        decode(image.withUnsafeBytes { Bytes(copying: $0) }, stamp: stamp)
    }

    static func decode(_ bytes: Bytes, stamp: String) -> IngredientParser? {
        #if _endian(big)
        return nil  // images are little-endian; a big-endian machine builds its own parser
        #else
        let raw = bytes.buffer
        guard raw.count >= headerSize, raw.prefix(8).elementsEqual(magic) else { return nil }
        func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        let stampBytes = Array(stamp.utf8)
        let stampLength = Int(u32(24))
        guard u32(8) == formatVersion, Int(u32(12)) == NameTables.Section.allCases.count, u64(16) == fingerprint,
              stampLength == stampBytes.count, headerSize + stampLength <= raw.count,
              raw[headerSize..<headerSize + stampLength].elementsEqual(stampBytes) else { return nil }
        let payloadStart = headerSize + ((stampLength + 7) & ~7)
        guard u64(32) == UInt64(raw.count - min(payloadStart, raw.count)), payloadStart <= raw.count,
              checksum(UnsafeRawBufferPointer(rebasing: raw[headerSize...])) == u64(40) else { return nil }
        guard let tables = NameTables(owner: bytes, payloadOffset: payloadStart) else { return nil }
        return IngredientParser(tables: tables)
        #endif
    }

    /// What in the program decides the index besides the lexicon: the program file itself
    /// (a new build may fold, split or hash names differently), the class and nutrient phrases
    /// and the words keys drop. An image made by another program is stale.
    public static let fingerprint: UInt64 = {
        var w: [UInt8] = []
        append(&w, formatVersion)
        w += Array(programIdentity.utf8)
        for row in FunctionClasses.table + FunctionClasses.taxonomyTable.map({ ($0.id, $0.phrases) }) {
            for s in [row.0] + row.1 { w += Array(s.utf8); w.append(0) }
        }
        for s in FunctionClasses.nutrientPhrases + FunctionClasses.taxonomyNutrientPhrases { w += Array(s.utf8); w.append(0) }
        for h in NameIndex.stopWords + NameIndex.numberMarks { append(&w, h) }
        for n in [NameIndex.fuzzyMinLength, NameIndex.twoSlipMinLength] { append(&w, Int64(n)) }
        return w.withUnsafeBytes { checksum($0) }
    }()

    /// Device, inode, size and modification time of the running program, or "" when unknown.
    static var programIdentity: String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "" }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// A 64-bit checksum, eight bytes at a step: finds damage, not forgery (whoever can
    /// write the data folder can write the store too; the tables are bounds-checked anyway).
    static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var sum = Checksum(count: raw.count)
        sum.add(raw)
        return sum.value
    }

    /// `checksum` over consecutive pieces; every piece but the last a multiple of 8 bytes.
    /// Words go round four lanes, so the multiplies of neighbouring words overlap (a single
    /// chain spent 1.6 ms on the 6.6 MB image); any one changed word changes its lane's value.
    struct Checksum {
        private var a: UInt64, b: UInt64, c: UInt64, d: UInt64
        private var words = 0

        init(count: Int) {
            let seed = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
            a = seed
            b = seed &+ 0x6A09_E667_F3BC_C908
            c = seed &+ 0xBB67_AE85_84CA_A73B
            d = seed &+ 0x3C6E_F372_FE94_F82B
        }

        @inline(__always)
        private static func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
            let x = (h ^ v) &* 0xFF51_AFD7_ED55_8CCD
            return x ^ (x >> 32)
        }

        @inline(__always)
        private mutating func one(_ v: UInt64) {
            switch words & 3 {
            case 0: a = Self.mix(a, v)
            case 1: b = Self.mix(b, v)
            case 2: c = Self.mix(c, v)
            default: d = Self.mix(d, v)
            }
            words += 1
        }

        mutating func add(_ raw: UnsafeRawBufferPointer) {
            let n = raw.count / 8
            @inline(__always) func word(_ i: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
            }
            var i = 0
            while i < n && words & 3 != 0 { one(word(i)); i += 1 }
            while i + 4 <= n {
                a = Self.mix(a, word(i))
                b = Self.mix(b, word(i + 1))
                c = Self.mix(c, word(i + 2))
                d = Self.mix(d, word(i + 3))
                i += 4
                words += 4
            }
            while i < n { one(word(i)); i += 1 }
            for j in (n * 8)..<raw.count {
                a = (a ^ UInt64(raw[j])) &* 0xC4CE_B9FE_1A85_EC53
            }
        }

        var value: UInt64 {
            let h = Self.mix(Self.mix(Self.mix(a, b), c), d)
            let x = h ^ (h >> 33)
            return x &* 0xFF51_AFD7_ED55_8CCD
        }
    }
}
