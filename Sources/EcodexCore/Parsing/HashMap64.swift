/// An open-addressing map from 64-bit keys to non-negative `Int32` values.
///
/// The name index looks up one word and one trie edge per token; Swift's
/// `Dictionary` re-hashes every key with SipHash, which showed up as a
/// large share of parse time. Keys here are already hashes, so a multiply
/// and shift spread them well enough.
struct HashMap64: Sendable {
    private(set) var keys: [UInt64]
    private(set) var values: [Int32]
    private var mask: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = [UInt64](repeating: 0, count: size)
        values = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int { Self.slot(key, mask: mask) }

    /// The first slot to probe for `key` (shared with `MappedHashMap`, which reads saved tables).
    @inline(__always)
    static func slot(_ key: UInt64, mask: Int) -> Int {
        var h = key &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return Int(truncatingIfNeeded: h) & mask
    }

    /// The same entries in the smallest table that keeps the load at most one half.
    func compacted() -> HashMap64 {
        var out = HashMap64(capacity: count)
        for (k, v) in zip(keys, values) where v >= 0 { out.set(k, v) }
        return out
    }

    /// The value for `key`, or -1.
    @inline(__always)
    func get(_ key: UInt64) -> Int32 {
        var i = slot(key)
        while true {
            let v = values[i]
            if v < 0 { return -1 }
            if keys[i] == key { return v }
            i = (i + 1) & mask
        }
    }

    /// Sets `key` to `value` (which must be non-negative).
    mutating func set(_ key: UInt64, _ value: Int32) {
        if (count + 1) * 2 > keys.count { grow() }
        var i = slot(key)
        while values[i] >= 0 {
            if keys[i] == key { values[i] = value; return }
            i = (i + 1) & mask
        }
        keys[i] = key
        values[i] = value
        count += 1
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        values = [Int32](repeating: -1, count: oldKeys.count * 2)
        mask = keys.count - 1
        count = 0
        for (k, v) in zip(oldKeys, oldValues) where v >= 0 { set(k, v) }
    }
}
