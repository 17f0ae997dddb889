/// The name index's tables as flat arrays inside one block of bytes (`ParserImage.Bytes`),
/// read in place: the same code reads a parser built in this process and one mapped from a file.
///
/// Every table that holds an index into another is checked once when the tables are opened
/// (`init?(owner:payloadOffset:)`), so lookups need no checks of their own and a damaged
/// image is refused instead of read out of bounds.
struct NameTables: @unchecked Sendable {
    /// The sections of the payload, in order.
    enum Section: Int, CaseIterable {
        case vocabKeys, vocabValues, edgeKeys, edgeValues, terminal
        case targetCode, targetFunction, targetInfo
        case wordStart, letters
        case deletionStart, deletionTag, deletionWord
        case longKeys, longStart, longWords
        case codeNumbers, codeLetters, codeRomanStart, codeRomans
        case nameStart, nameBytes
        case knownCodes, functionCodes, functionStart, functionNames
    }

    /// Keeps the bytes alive while any copy of these tables exists.
    let owner: ParserImage.Bytes
    /// The payload: section directory and sections.
    let payload: UnsafeRawBufferPointer

    let vocab: MappedHashMap
    let edges: MappedHashMap
    /// Trie node → target, or -1.
    let terminal: UnsafeBufferPointer<Int32>
    /// Per target: code id or -1, function name id or -1, and `flags | words << 2 | chars << 10`.
    let targetCode: UnsafeBufferPointer<Int32>
    let targetFunction: UnsafeBufferPointer<Int32>
    let targetInfo: UnsafeBufferPointer<UInt32>
    /// Every word's letters end to end: word `id` is `letters[wordStart[id]..<wordStart[id + 1]]`.
    let wordStart: UnsafeBufferPointer<Int32>
    let letters: UnsafeBufferPointer<UInt32>
    /// One-deletion hashes of the words, bucketed by their top bits: bucket `b` holds
    /// postings `deletionStart[b]..<deletionStart[b + 1]`, each the low 32 bits of its hash
    /// (`deletionTag`) and its word. Postings of one hash keep the order the builder gave them.
    let deletionStart: UnsafeBufferPointer<UInt32>
    let deletionTag: UnsafeBufferPointer<UInt32>
    let deletionWord: UnsafeBufferPointer<Int32>
    let deletionShift: UInt64
    /// Long words by length and end letters (`NameIndex.endsKey`), sorted keys; bucket `i` is
    /// `longWords[longStart[i]..<longStart[i + 1]]`.
    let longKeys: UnsafeBufferPointer<UInt64>
    let longStart: UnsafeBufferPointer<Int32>
    let longWords: UnsafeBufferPointer<Int32>

    /// The small tables, decoded: a few hundred codes and function names.
    let codes: [ECode]
    let names: [String]
    let knownCodes: Set<ECode>
    let functions: [ECode: [String]]

    var wordCount: Int { wordStart.count - 1 }

    @inline(__always)
    func word(_ id: Int32) -> UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(rebasing: letters[Int(wordStart[Int(id)])..<Int(wordStart[Int(id) + 1])])
    }

    @inline(__always)
    func target(_ t: Int32) -> NameIndex.Target {
        let i = Int(t)
        let info = targetInfo[i]
        let c = targetCode[i], f = targetFunction[i]
        return NameIndex.Target(code: c >= 0 ? codes[Int(c)] : nil, contextOnly: info & 1 != 0,
                                function: f >= 0 ? names[Int(f)] : nil, nutrient: info & 2 != 0,
                                chars: Int(info >> 10), words: Int((info >> 2) & 0xFF))
    }

    /// The long words with this length and these end letters.
    func longBucket(_ key: UInt64) -> UnsafeBufferPointer<Int32>? {
        var lo = 0, hi = longKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if longKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        guard lo < longKeys.count, longKeys[lo] == key else { return nil }
        return UnsafeBufferPointer(rebasing: longWords[Int(longStart[lo])..<Int(longStart[lo + 1])])
    }

    /// Opens the payload at `payloadOffset` in `owner`; nil when any section is out of place
    /// or any table points outside the table it indexes.
    init?(owner: ParserImage.Bytes, payloadOffset: Int) {
        let all = owner.buffer
        guard payloadOffset % 8 == 0, payloadOffset <= all.count else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: all[payloadOffset...])
        let n = Section.allCases.count
        guard payload.count >= n * 16 else { return nil }
        var ranges: [Range<Int>] = []
        for s in 0..<n {
            let offset = UInt64(littleEndian: payload.load(fromByteOffset: s * 16, as: UInt64.self))
            let length = UInt64(littleEndian: payload.load(fromByteOffset: s * 16 + 8, as: UInt64.self))
            guard offset % 8 == 0, offset >= UInt64(n * 16), offset <= UInt64(payload.count),
                  length <= UInt64(payload.count) - offset else { return nil }
            ranges.append(Int(offset)..<Int(offset + length))
        }
        func array<T>(_ s: Section, _: T.Type) -> UnsafeBufferPointer<T>? {
            let r = ranges[s.rawValue]
            guard r.count % MemoryLayout<T>.stride == 0 else { return nil }
            return UnsafeRawBufferPointer(rebasing: payload[r]).bindMemory(to: T.self)
        }
        guard let vocabKeys = array(.vocabKeys, UInt64.self), let vocabValues = array(.vocabValues, Int32.self),
              let edgeKeys = array(.edgeKeys, UInt64.self), let edgeValues = array(.edgeValues, Int32.self),
              let terminal = array(.terminal, Int32.self), let targetCode = array(.targetCode, Int32.self),
              let targetFunction = array(.targetFunction, Int32.self), let targetInfo = array(.targetInfo, UInt32.self),
              let wordStart = array(.wordStart, Int32.self), let letters = array(.letters, UInt32.self),
              let deletionStart = array(.deletionStart, UInt32.self), let deletionTag = array(.deletionTag, UInt32.self),
              let deletionWord = array(.deletionWord, Int32.self), let longKeys = array(.longKeys, UInt64.self),
              let longStart = array(.longStart, Int32.self), let longWords = array(.longWords, Int32.self),
              let codeNumbers = array(.codeNumbers, Int32.self), let codeLetters = array(.codeLetters, UInt32.self),
              let codeRomanStart = array(.codeRomanStart, Int32.self), let codeRomans = array(.codeRomans, UInt8.self),
              let nameStart = array(.nameStart, Int32.self), let nameBytes = array(.nameBytes, UInt8.self),
              let knownIDs = array(.knownCodes, Int32.self), let functionCodes = array(.functionCodes, Int32.self),
              let functionStart = array(.functionStart, Int32.self), let functionNames = array(.functionNames, Int32.self)
        else { return nil }

        // Counts: words, trie nodes, targets, codes, names.
        let words = wordStart.count - 1, nodes = terminal.count, targets = targetCode.count
        let codeCount = codeNumbers.count, nameCount = nameStart.count - 1
        guard words >= 0, nameCount >= 0, nodes >= 1, targetFunction.count == targets, targetInfo.count == targets,
              codeLetters.count == codeCount, codeRomanStart.count == codeCount + 1,
              deletionTag.count == deletionWord.count, deletionStart.count >= 2,
              (deletionStart.count - 1) & (deletionStart.count - 2) == 0,
              longStart.count == longKeys.count + 1, functionStart.count == functionCodes.count + 1,
              let vocab = MappedHashMap(keys: vocabKeys, values: vocabValues, below: words),
              let edges = MappedHashMap(keys: edgeKeys, values: edgeValues, below: nodes),
              Self.within(terminal, -1, targets), Self.within(targetCode, -1, codeCount),
              Self.within(targetFunction, -1, nameCount),
              Self.ascending(wordStart, to: letters.count), Self.ascending(deletionStart, to: deletionWord.count),
              Self.within(deletionWord, 0, words), Self.ascending(longStart, to: longWords.count),
              Self.within(longWords, 0, words), Self.ascending(codeRomanStart, to: codeRomans.count),
              Self.ascending(nameStart, to: nameBytes.count), Self.within(knownIDs, 0, codeCount),
              Self.within(functionCodes, 0, codeCount), Self.ascending(functionStart, to: functionNames.count),
              Self.within(functionNames, 0, nameCount)
        else { return nil }
        for i in 1..<max(1, longKeys.count) where longKeys[i - 1] >= longKeys[i] { return nil }

        func string(_ start: UnsafeBufferPointer<Int32>, _ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(start[i])..<Int(start[i + 1])]), as: UTF8.self)
        }
        var codes: [ECode] = []
        codes.reserveCapacity(codeCount)
        for i in 0..<codeCount {
            var letter: Character?
            if codeLetters[i] != 0 {
                guard let s = Unicode.Scalar(codeLetters[i]) else { return nil }
                letter = Character(s)
            }
            let roman = string(codeRomanStart, codeRomans, i)
            codes.append(ECode(number: Int(codeNumbers[i]), letter: letter, roman: roman.isEmpty ? nil : roman))
        }
        let names = (0..<nameCount).map { string(nameStart, nameBytes, $0) }
        var functions: [ECode: [String]] = [:]
        for (i, c) in functionCodes.enumerated() {
            functions[codes[Int(c)]] = functionNames[Int(functionStart[i])..<Int(functionStart[i + 1])].map { names[Int($0)] }
        }
        self.owner = owner
        self.payload = payload
        self.vocab = vocab
        self.edges = edges
        self.terminal = terminal
        self.targetCode = targetCode
        self.targetFunction = targetFunction
        self.targetInfo = targetInfo
        self.wordStart = wordStart
        self.letters = letters
        self.deletionStart = deletionStart
        self.deletionTag = deletionTag
        self.deletionWord = deletionWord
        self.deletionShift = UInt64(64 - (deletionStart.count - 1).trailingZeroBitCount)
        self.longKeys = longKeys
        self.longStart = longStart
        self.longWords = longWords
        self.codes = codes
        self.names = names
        self.knownCodes = Set(knownIDs.map { codes[Int($0)] })
        self.functions = functions
    }

    /// Every value in `lo..<hi`.
    private static func within(_ values: UnsafeBufferPointer<Int32>, _ lo: Int32, _ hi: Int) -> Bool {
        var ok = true
        for v in values { ok = ok && v >= lo && Int(v) < hi }
        return ok
    }

    /// Starts of consecutive runs: from 0, never down, ending at `end`.
    private static func ascending<T: FixedWidthInteger>(_ starts: UnsafeBufferPointer<T>, to end: Int) -> Bool {
        guard let first = starts.first, first == 0, Int(starts[starts.count - 1]) == end else { return false }
        var ok = true
        for i in 1..<starts.count { ok = ok && starts[i - 1] <= starts[i] }
        return ok
    }

    // MARK: Writing

    /// The payload bytes for these tables (`NameIndex.Builder` fills it).
    struct Writer {
        private var sections: [[UInt8]] = Array(repeating: [], count: Section.allCases.count)

        mutating func put<T: FixedWidthInteger>(_ s: Section, _ values: [T]) {
            #if _endian(little)
            sections[s.rawValue] = values.withUnsafeBytes { Array($0) }
            #else
            var bytes = [UInt8]()
            bytes.reserveCapacity(values.count * MemoryLayout<T>.size)
            for v in values { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
            sections[s.rawValue] = bytes
            #endif
        }

        /// Strings as one byte section and their start offsets.
        mutating func put(_ bytes: Section, _ starts: Section, _ strings: [String]) {
            var flat: [UInt8] = [], start: [Int32] = [0]
            for s in strings { flat += s.utf8; start.append(Int32(flat.count)) }
            put(bytes, flat)
            put(starts, start)
        }

        /// Directory and sections, each 8-aligned, written straight into one new block.
        func payload() -> ParserImage.Bytes {
            var size = sections.count * 16
            for s in sections { size += (s.count + 7) & ~7 }
            return ParserImage.Bytes(count: size) { out in
                out.initializeMemory(as: UInt8.self, repeating: 0)
                var at = sections.count * 16
                for (i, s) in sections.enumerated() {
                    out.storeBytes(of: UInt64(at).littleEndian, toByteOffset: i * 16, as: UInt64.self)
                    out.storeBytes(of: UInt64(s.count).littleEndian, toByteOffset: i * 16 + 8, as: UInt64.self)
                    s.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[at..<at + s.count]).copyMemory(from: $0) }
                    at += (s.count + 7) & ~7
                }
            }
        }
    }
}

/// An open-addressing table (`HashMap64`'s layout) read in place: a power-of-two number of
/// slots with at least one free, so every probe ends.
struct MappedHashMap: @unchecked Sendable {
    let keys: UnsafeBufferPointer<UInt64>
    let values: UnsafeBufferPointer<Int32>
    let mask: Int

    /// Nil unless the table has that shape and every value is -1 (free) or below `below`.
    init?(keys: UnsafeBufferPointer<UInt64>, values: UnsafeBufferPointer<Int32>, below: Int) {
        let n = keys.count
        guard n >= 16, n & (n - 1) == 0, values.count == n else { return nil }
        var free = 0, ok = true
        for v in values {
            free &+= v < 0 ? 1 : 0
            ok = ok && v >= -1 && Int(v) < below
        }
        guard ok, free > 0 else { return nil }
        self.keys = keys
        self.values = values
        mask = n - 1
    }

    /// The value for `key`, or -1.
    @inline(__always)
    func get(_ key: UInt64) -> Int32 {
        var i = HashMap64.slot(key, mask: mask)
        while true {
            let v = values[i]
            if v < 0 { return -1 }
            if keys[i] == key { return v }
            i = (i + 1) & mask
        }
    }
}
