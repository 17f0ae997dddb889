internal import CZlib

/// How the store keeps each record's JSON: compressed with zlib against a dictionary
/// of typical records, stored once in the store (`record_dictionary`).
///
/// The records repeat the same keys, region names, references and wording, so a
/// shared dictionary takes them from 1.9 MB of JSON to about 0.3 MB, where
/// compressing each record alone leaves 0.7 MB. The zlib format carries an
/// Adler-32 of the JSON and the dictionary's own checksum: a damaged record,
/// or one read with another store's dictionary, fails to decompress instead of
/// decoding to something else.
struct RecordCodec {
    /// zlib keeps a 32 KiB window, so a longer dictionary would not be used.
    static let maximumDictionaryBytes = 32 * 1024
    /// No record comes near this; a damaged one that claims more is refused.
    static let maximumRecordBytes = 16 * 1024 * 1024

    let dictionary: [UInt8]

    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "zlib error \(code)" }
    }

    /// A dictionary for `records` (their JSON, most frequent on labels first): whole records,
    /// up to 32 KiB, with the most frequent last, where zlib reaches them most cheaply.
    static func dictionary(from records: [[UInt8]]) -> [UInt8] {
        var chosen: [[UInt8]] = []
        var size = 0
        for record in records where size + record.count <= maximumDictionaryBytes {
            chosen.append(record)
            size += record.count
        }
        return Array(chosen.reversed().joined())
    }

    /// Compresses one record (a one-off; a writer of many records keeps one `Compressor`).
    func compress(_ json: [UInt8]) throws -> [UInt8] {
        try Compressor(self).compress(json)
    }

    /// Compresses records against one dictionary, which it sets once: setting a 32 KiB
    /// dictionary costs several times more than compressing a record (about 300 µs a
    /// record, where a copy of the primed stream costs a tenth of that).
    final class Compressor {
        private let primed: UnsafeMutableRawPointer

        init(_ codec: RecordCodec) throws {
            guard let primed = codec.dictionary.withUnsafeBufferPointer({
                ecodex_deflater_new($0.baseAddress, UInt32($0.count))
            }) else { throw Failure(code: Z_MEM_ERROR) }
            self.primed = primed
        }

        deinit { ecodex_deflater_free(primed) }

        func compress(_ json: [UInt8]) throws -> [UInt8] {
            try RecordCodec.compress(json) { src, srcCount, dst, dstCount, length in
                ecodex_deflate_primed(primed, src, srcCount, dst, dstCount, &length)
            }
        }
    }

    private static func compress(
        _ json: [UInt8],
        _ call: (UnsafePointer<UInt8>?, UInt, UnsafeMutablePointer<UInt8>?, UInt, inout UInt) -> Int32
    ) throws -> [UInt8] {
        var capacity = json.count + json.count / 8 + 1024
        while true {
            var out = [UInt8](repeating: 0, count: capacity)
            var length: UInt = 0
            let rc = json.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    call(src.baseAddress, UInt(src.count), dst.baseAddress, UInt(dst.count), &length)
                }
            }
            if rc == Z_BUF_ERROR, capacity < 2 * json.count + 4096 { capacity *= 2; continue }
            guard rc == Z_OK else { throw Failure(code: rc) }
            out.removeSubrange(Int(length)...)
            return out
        }
    }

    /// The JSON `compress` was given. Throws `Failure` for damaged data.
    func decompress(_ data: UnsafeRawBufferPointer) throws -> [UInt8] {
        var capacity = max(4096, data.count * 8)
        while true {
            var out = [UInt8](repeating: 0, count: capacity)
            var length: UInt = 0
            let rc = dictionary.withUnsafeBufferPointer { dict in
                out.withUnsafeMutableBufferPointer { dst in
                    ecodex_inflate(dict.baseAddress, UInt32(dict.count), data.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                   UInt(data.count), dst.baseAddress, UInt(dst.count), &length)
                }
            }
            if rc == Z_BUF_ERROR, capacity < Self.maximumRecordBytes { capacity = min(capacity * 4, Self.maximumRecordBytes); continue }
            guard rc == Z_OK else { throw Failure(code: rc) }
            out.removeSubrange(Int(length)...)
            return out
        }
    }

    func decompress(_ data: [UInt8]) throws -> [UInt8] {
        try data.withUnsafeBytes { try decompress($0) }
    }
}
