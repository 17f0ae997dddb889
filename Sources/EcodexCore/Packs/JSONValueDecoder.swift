/// Decodes `Decodable` types from a parsed `JSONValue`, so records keep their
/// one `init(from:)` whichever parser read the bytes.
///
/// It behaves as Foundation's `JSONDecoder` does with default strategies for
/// what pack records use: unknown keys are ignored, `decodeIfPresent` treats a
/// missing key and `null` alike, and failures are `DecodingError`s whose coding
/// path names the field (`additives[3].plain_risk.summary`). `JSONValue` holds
/// integers only, so a floating-point type decodes only from a whole number.
/// No date or data strategies: `Date` and `Data` use their own `Codable` forms.
public struct JSONValueDecoder {
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoding.decode(T.self, from: value, at: .root, userInfo: userInfo)
    }
}

/// Where a value sits in the document. Built as decoding descends, turned into
/// a `[CodingKey]` only when someone asks (an error, mostly).
private indirect enum CodingPathNode {
    case root
    case key(any CodingKey, CodingPathNode)
    case index(Int, CodingPathNode)

    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let key, let parent): keys.append(key); node = parent
            case .index(let i, let parent): keys.append(IndexKey(i)); node = parent
            }
        }
    }
}

/// The key `superDecoder()` reads, as `JSONDecoder` spells it.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// A dictionary's key, as the standard library's `Dictionary.init(from:)` spells it.
private struct DictionaryKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ key: String) {
        stringValue = key
        intValue = Int(key)
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(String(intValue)) }
}

/// The key of an array element, as `JSONDecoder` spells it.
private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String
    init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

private enum JSONValueDecoding {
    static func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, at node: @autoclosure () -> CodingPathNode, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> T {
        // The types records are mostly made of skip the generic machinery
        // (a decoder, boxed containers and coding keys per value). Each check
        // compares metadata pointers; the casts are no-ops once it holds.
        if T.self == String.self { return unsafeBitCast(try string(value, at: node()), to: T.self) }
        if T.self == [String].self { return unsafeBitCast(try strings(value, at: node()), to: T.self) }
        if T.self == [String: [String]].self { return unsafeBitCast(try stringLists(value, at: node()), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self, value, at: node()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(value, at: node()), to: T.self) }
        // Other arrays and string-keyed dictionaries: no container per element either.
        if let collection = T.self as? any JSONValueCollection.Type {
            return try collection.decode(value, at: node(), userInfo: userInfo) as! T
        }
        return try T(from: ValueDecoder(value: value, node: node(), userInfo: userInfo))
    }

    static func strings(_ value: JSONValue, at node: @autoclosure () -> CodingPathNode) throws -> [String] {
        guard case .array(let items) = value else { throw mismatch([Any].self, value, at: node()) }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item else { throw mismatch(String.self, item, at: .index(i, node())) }
            out.append(s)
        }
        return out
    }

    static func stringLists(_ value: JSONValue, at node: @autoclosure () -> CodingPathNode) throws -> [String: [String]] {
        guard case .object(let members) = value else { throw mismatch([String: Any].self, value, at: node()) }
        // mapValues keeps the hash table as it is instead of hashing every key again.
        if let lists = try? members.mapValues({ try strings($0, at: .root) }) { return lists }
        // Something is wrong: find it again, this time to name it.
        for (key, list) in members { _ = try strings(list, at: .key(DictionaryKey(key), node())) }
        preconditionFailure("a list failed to decode once but not twice")
    }

    static func context(_ node: CodingPathNode, _ description: String) -> DecodingError.Context {
        DecodingError.Context(codingPath: node.path, debugDescription: description)
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .int: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, at node: CodingPathNode) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, context(node, "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(type, context(node, "Expected to decode \(type) but found \(kind(value)) instead."))
    }

    static func string(_ value: JSONValue, at node: @autoclosure () -> CodingPathNode) throws -> String {
        if case .string(let s) = value { return s }
        throw mismatch(String.self, value, at: node())
    }

    static func bool(_ value: JSONValue, at node: @autoclosure () -> CodingPathNode) throws -> Bool {
        if case .bool(let b) = value { return b }
        throw mismatch(Bool.self, value, at: node())
    }

    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue, at node: @autoclosure () -> CodingPathNode) throws -> I {
        guard case .int(let n) = value else { throw mismatch(I.self, value, at: node()) }
        guard let i = I(exactly: n) else {
            throw DecodingError.dataCorrupted(context(node(), "Number \(n) does not fit in \(I.self)."))
        }
        return i
    }

    static func floatingPoint<F: BinaryFloatingPoint>(_ type: F.Type, _ value: JSONValue, at node: @autoclosure () -> CodingPathNode) throws -> F {
        guard case .int(let n) = value else { throw mismatch(F.self, value, at: node()) }
        return F(n)
    }

    static func keyed<K: CodingKey>(
        _ value: JSONValue, _ type: K.Type, at node: CodingPathNode, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> KeyedDecodingContainer<K> {
        guard case .object(let members) = value else { throw mismatch([String: Any].self, value, at: node) }
        return KeyedDecodingContainer(KeyedContainer<K>(members: members, node: node, userInfo: userInfo))
    }

    static func unkeyed(_ value: JSONValue, at node: CodingPathNode, userInfo: [CodingUserInfoKey: any Sendable]) throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self, value, at: node) }
        return UnkeyedContainer(items: items, node: node, userInfo: userInfo)
    }
}

/// Arrays and string-keyed dictionaries, decoded element by element as the
/// standard library's `init(from:)` would, without its containers and keys.
private protocol JSONValueCollection {
    static func decode(_ value: JSONValue, at node: CodingPathNode, userInfo: [CodingUserInfoKey: any Sendable]) throws -> Self
}

extension Array: JSONValueCollection where Element: Decodable {
    fileprivate static func decode(_ value: JSONValue, at node: CodingPathNode, userInfo: [CodingUserInfoKey: any Sendable]) throws -> Self {
        guard case .array(let items) = value else { throw JSONValueDecoding.mismatch([Any].self, value, at: node) }
        var out: [Element] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            out.append(try JSONValueDecoding.decode(Element.self, from: item, at: .index(i, node), userInfo: userInfo))
        }
        return out
    }
}

extension Dictionary: JSONValueCollection where Key == String, Value: Decodable {
    fileprivate static func decode(_ value: JSONValue, at node: CodingPathNode, userInfo: [CodingUserInfoKey: any Sendable]) throws -> Self {
        guard case .object(let members) = value else { throw JSONValueDecoding.mismatch([String: Any].self, value, at: node) }
        var out: [String: Value] = [:]
        out.reserveCapacity(members.count)
        for (key, member) in members {
            out[key] = try JSONValueDecoding.decode(Value.self, from: member, at: .key(DictionaryKey(key), node), userInfo: userInfo)
        }
        return out
    }
}

private final class ValueDecoder: Decoder {
    let value: JSONValue
    let node: CodingPathNode
    private let sendableUserInfo: [CodingUserInfoKey: any Sendable]

    init(value: JSONValue, node: CodingPathNode, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.node = node
        sendableUserInfo = userInfo
    }

    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    var codingPath: [any CodingKey] { node.path }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try JSONValueDecoding.keyed(value, Key.self, at: node, userInfo: sendableUserInfo)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoding.unkeyed(value, at: node, userInfo: sendableUserInfo)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, node: node, userInfo: sendableUserInfo)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let node: CodingPathNode
    let userInfo: [CodingUserInfoKey: any Sendable]

    var codingPath: [any CodingKey] { node.path }

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, JSONValueDecoding.context(node, "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    /// The value for `key`, or nil when it is missing or null.
    private func valueIfPresent(for key: Key) -> JSONValue? {
        guard let value = members[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(for: key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try JSONValueDecoding.bool(value(for: key), at: .key(key, node))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try JSONValueDecoding.string(value(for: key), at: .key(key, node))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try JSONValueDecoding.floatingPoint(Double.self, value(for: key), at: .key(key, node))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try JSONValueDecoding.floatingPoint(Float.self, value(for: key), at: .key(key, node))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try JSONValueDecoding.integer(I.self, value(for: key), at: .key(key, node))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONValueDecoding.decode(T.self, from: value(for: key), at: .key(key, node), userInfo: userInfo)
    }

    // One lookup instead of the default's three (contains, decodeNil, decode).

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try JSONValueDecoding.string(value, at: .key(key, node))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try JSONValueDecoding.bool(value, at: .key(key, node))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try JSONValueDecoding.integer(Int.self, value, at: .key(key, node))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try JSONValueDecoding.decode(T.self, from: value, at: .key(key, node), userInfo: userInfo)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONValueDecoding.keyed(value(for: key), NestedKey.self, at: .key(key, node), userInfo: userInfo)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoding.unkeyed(value(for: key), at: .key(key, node), userInfo: userInfo)
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .null, node: .key(SuperKey(), node), userInfo: userInfo)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, node: .key(key, node), userInfo: userInfo)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let node: CodingPathNode
    let userInfo: [CodingUserInfoKey: any Sendable]
    private(set) var currentIndex = 0

    init(items: [JSONValue], node: CodingPathNode, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.items = items
        self.node = node
        self.userInfo = userInfo
    }

    var codingPath: [any CodingKey] { node.path }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private var here: CodingPathNode { .index(currentIndex, node) }

    private func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, JSONValueDecoding.context(here, "Unkeyed container is at end."))
        }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        if case .null = try next(Never.self) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let b = try JSONValueDecoding.bool(next(Bool.self), at: here)
        currentIndex += 1
        return b
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let s = try JSONValueDecoding.string(next(String.self), at: here)
        currentIndex += 1
        return s
    }

    mutating func decode(_ type: Double.Type) throws -> Double { try floatingPoint() }
    mutating func decode(_ type: Float.Type) throws -> Float { try floatingPoint() }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<I: FixedWidthInteger>() throws -> I {
        let i = try JSONValueDecoding.integer(I.self, next(I.self), at: here)
        currentIndex += 1
        return i
    }

    private mutating func floatingPoint<F: BinaryFloatingPoint>() throws -> F {
        let f = try JSONValueDecoding.floatingPoint(F.self, next(F.self), at: here)
        currentIndex += 1
        return f
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try JSONValueDecoding.decode(T.self, from: next(T.self), at: here, userInfo: userInfo)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try JSONValueDecoding.keyed(next([String: Any].self), NestedKey.self, at: here, userInfo: userInfo)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try JSONValueDecoding.unkeyed(next([Any].self), at: here, userInfo: userInfo)
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = ValueDecoder(value: try next(Any.self), node: here, userInfo: userInfo)
        currentIndex += 1
        return decoder
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let node: CodingPathNode
    let userInfo: [CodingUserInfoKey: any Sendable]

    var codingPath: [any CodingKey] { node.path }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try JSONValueDecoding.bool(value, at: node) }
    func decode(_ type: String.Type) throws -> String { try JSONValueDecoding.string(value, at: node) }
    func decode(_ type: Double.Type) throws -> Double { try JSONValueDecoding.floatingPoint(Double.self, value, at: node) }
    func decode(_ type: Float.Type) throws -> Float { try JSONValueDecoding.floatingPoint(Float.self, value, at: node) }
    func decode(_ type: Int.Type) throws -> Int { try JSONValueDecoding.integer(Int.self, value, at: node) }
    func decode(_ type: Int8.Type) throws -> Int8 { try JSONValueDecoding.integer(Int8.self, value, at: node) }
    func decode(_ type: Int16.Type) throws -> Int16 { try JSONValueDecoding.integer(Int16.self, value, at: node) }
    func decode(_ type: Int32.Type) throws -> Int32 { try JSONValueDecoding.integer(Int32.self, value, at: node) }
    func decode(_ type: Int64.Type) throws -> Int64 { try JSONValueDecoding.integer(Int64.self, value, at: node) }
    func decode(_ type: UInt.Type) throws -> UInt { try JSONValueDecoding.integer(UInt.self, value, at: node) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONValueDecoding.integer(UInt8.self, value, at: node) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONValueDecoding.integer(UInt16.self, value, at: node) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONValueDecoding.integer(UInt32.self, value, at: node) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONValueDecoding.integer(UInt64.self, value, at: node) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoding.decode(T.self, from: value, at: node, userInfo: userInfo)
    }
}
