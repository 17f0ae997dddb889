/// Writing the index into a `ParserImage` and reading it back, checking every number that
/// is later used as an index into another table, so a damaged image is refused, not trusted.
extension NameIndex {
    /// Every code a key leads to.
    var codes: [ECode] { targets.compactMap(\.code) }

    func write(to w: inout ByteWriter, codes: inout CodeTable) {
        vocab.write(to: &w)
        w.int32s(Self.offsets(words.map(\.count)))
        w.array(words.flatMap { $0 })
        edges.write(to: &w)
        w.int32s(terminal)
        var functionIDs: [String] = []
        w.int32s(targets.map { t in t.code.map { codes.id($0) } ?? -1 })
        w.int32s(targets.map { t in
            guard let f = t.function else { return -1 }
            if let i = functionIDs.firstIndex(of: f) { return Int32(i) }
            functionIDs.append(f)
            return Int32(functionIDs.count - 1)
        })
        w.strings(functionIDs)
        w.int32s(targets.map { Int32(($0.contextOnly ? 1 : 0) | ($0.nutrient ? 2 : 0)) })
        w.int32s(targets.map { Int32($0.chars) })
        w.int32s(targets.map { Int32($0.words) })
        deletionHead.write(to: &w)
        w.array(deletionFilter)
        w.int32s(Self.offsets(longWords.map(\.count)))
        w.int32s(longWords.flatMap { $0 })
        w.int32s(deletionWord)
        w.int32s(deletionNext)
    }

    /// Reads an index written by `write(to:codes:)`; nil when any table is inconsistent.
    init?(reading r: inout ByteReader, codes: CodeTable) {
        self.init()
        guard let vocab = HashMap64(reading: &r), let wordOffsets = r.int32s(), let flat = r.array(UInt32.self),
              let words = Self.split(flat, at: wordOffsets), vocab.values(below: words.count),
              let edges = HashMap64(reading: &r), let terminal = r.int32s(), edges.values(below: terminal.count),
              let codeIDs = r.int32s(), let functionIDs = r.int32s(), let functionNames = r.strings(),
              let flags = r.int32s(), let chars = r.int32s(), let wordCounts = r.int32s(),
              [functionIDs.count, flags.count, chars.count, wordCounts.count].allSatisfy({ $0 == codeIDs.count }),
              terminal.allSatisfy({ $0 >= -1 && Int($0) < codeIDs.count }),
              let deletionHead = HashMap64(reading: &r), let filter = r.array(UInt64.self),
              filter.count == Self.filterWords,
              let longOffsets = r.int32s(), let longFlat = r.int32s(), let longWords = Self.split(longFlat, at: longOffsets),
              longWords.count == Self.longWordSlots, longFlat.allSatisfy({ $0 >= 0 && Int($0) < words.count }),
              let deletionWord = r.int32s(), let deletionNext = r.int32s(),
              deletionWord.count == deletionNext.count, deletionHead.values(below: deletionWord.count),
              deletionWord.allSatisfy({ $0 >= 0 && Int($0) < words.count }),
              // Chains only point back, so a walk along one always ends.
              deletionNext.indices.allSatisfy({ deletionNext[$0] >= -1 && Int(deletionNext[$0]) < $0 })
        else { return nil }
        var targets: [Target] = []
        targets.reserveCapacity(codeIDs.count)
        for i in codeIDs.indices {
            let c = codeIDs[i], f = functionIDs[i]
            guard c >= -1, Int(c) < codes.count, f >= -1, Int(f) < functionNames.count else { return nil }
            targets.append(Target(code: c >= 0 ? codes[Int(c)] : nil, contextOnly: flags[i] & 1 != 0,
                                  function: f >= 0 ? functionNames[Int(f)] : nil, nutrient: flags[i] & 2 != 0,
                                  chars: Int(chars[i]), words: Int(wordCounts[i])))
        }
        self.vocab = vocab
        self.words = words
        self.edges = edges
        self.terminal = terminal
        self.targets = targets
        self.deletionHead = deletionHead
        self.deletionFilter = filter
        self.longWords = longWords
        self.deletionWord = deletionWord
        self.deletionNext = deletionNext
    }

    /// Start offsets of consecutive runs of the given lengths, and the end.
    private static func offsets(_ lengths: [Int]) -> [Int32] {
        var out: [Int32] = [0]
        out.reserveCapacity(lengths.count + 1)
        for n in lengths { out.append(out[out.count - 1] + Int32(n)) }
        return out
    }

    private static func split<T>(_ flat: [T], at offsets: [Int32]) -> [[T]]? {
        guard offsets.first == 0, offsets.last.map({ Int($0) == flat.count }) == true else { return nil }
        var out: [[T]] = []
        out.reserveCapacity(offsets.count - 1)
        for i in 1..<offsets.count {
            guard offsets[i - 1] <= offsets[i] else { return nil }
            out.append(Array(flat[Int(offsets[i - 1])..<Int(offsets[i])]))
        }
        return out
    }
}

extension HashMap64 {
    func write(to w: inout ByteWriter) {
        w.array(keys)
        w.int32s(values)
    }

    /// A map as `write(to:)` left it: a power-of-two table with at least one free slot,
    /// so every probe ends.
    init?(reading r: inout ByteReader) {
        guard let keys = r.array(UInt64.self), let values = r.int32s(), keys.count == values.count,
              keys.count >= 16, keys.count & (keys.count - 1) == 0 else { return nil }
        let used = values.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
        guard used < keys.count else { return nil }
        self.init(keys: keys, values: values, count: used)
    }

    /// True when every value is a valid index into a table of `count` rows.
    func values(below count: Int) -> Bool {
        values.allSatisfy { $0 < count }
    }
}
