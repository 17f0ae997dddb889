import Foundation
import Testing
@testable import EcodexCore

/// `JSONValueDecoder` must read records exactly as Foundation's `JSONDecoder`
/// does, and fail where it fails, naming the same field.
@Suite struct JSONValueDecoderTests {
    static func viaJSONValue<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        try JSONValueDecoder().decode(T.self, from: JSONValue.parse(bytes))
    }

    @Test func theShippedBasePackDecodesAsWithJSONDecoder() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/EcodexStore/Resources/base-pack.json")
        let bytes = Array(try Data(contentsOf: url))
        let foundation = try JSONDecoder().decode(Pack.self, from: Data(bytes))
        #expect(try Self.viaJSONValue(Pack.self, bytes) == foundation)
        #expect(foundation.additives.count > 500)
    }

    @Test func optionalAndDefaultedFieldsDecodeAsWithJSONDecoder() throws {
        // Absent, null and present optional fields; missing defaulted fields.
        let text = #"[{"code":"E102","parent":null,"names":{"en":["Tartrazine"]},"class":["colour"],"region_rules":{"EU":{"approved":true,"name":null}},"#
            + #""evidence_level":"Regulatory","plain_risk":{"summary":"A dye.","audience":[]},"references":[],"updated_at":"2026-11-21"},"#
            + #"{"code":"E160a(ii)","parent":"E160a","names":{},"context_names":["x"],"class":[],"dietary":{"vegan":"yes"},"region_rules":{},"#
            + #""evidence_level":"Limited","concern":"c","plain_risk":{"summary":"s","audience":["Kids"]},"references":[{"label":"l","url":"u"}],"#
            + #""label_frequency":-3,"updated_at":"x","unknown":{"ignored":[1,2,{}]}}]"#
        let bytes = Array(text.utf8)
        let foundation = try JSONDecoder().decode([Additive].self, from: Data(bytes))
        #expect(try Self.viaJSONValue([Additive].self, bytes) == foundation)
    }

    /// The error's case and coding path, as `PackPayload` reports them.
    static func summary(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not a DecodingError: \(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        }
        switch error {
        case .keyNotFound(let key, let c): return "keyNotFound \(path(c.codingPath + [key]))"
        case .valueNotFound(_, let c): return "valueNotFound \(path(c.codingPath))"
        case .typeMismatch(_, let c): return "typeMismatch \(path(c.codingPath))"
        case .dataCorrupted(let c): return "dataCorrupted \(path(c.codingPath))"
        @unknown default: return "\(error)"
        }
    }

    @Test(arguments: [
        ("references", nil),
        ("class", JSONValue.string("colour")),
        ("updated_at", .null),
        ("updated_at", .int(5)),
        ("evidence_level", .string("Maybe")),
        ("code", .string("X1")),
        ("parent", .string("nonsense")),
        ("names", .object(["en": .array([.int(1)])])),
        ("names", .array([])),
        ("region_rules", .object(["EU": .object([:])])),
        ("region_rules", .object(["EU": .object(["approved": .string("yes")])])),
        ("label_frequency", .string("12")),
        ("dietary", .object(["vegan": .string("maybe")])),
        ("concern", .int(5)),
        ("plain_risk", .object(["summary": .string("s"), "audience": .array([.null])])),
        ("references", .array([.object(["label": .string("l")])])),
    ] as [(String, JSONValue?)])
    func brokenRecordsFailLikeJSONDecoder(field: String, value: JSONValue?) throws {
        let good = try JSONValue.parse(Array(JSONEncoder().encode(TestRecords.tartrazine)))
        var members = try #require(good.objectValue)
        members[field] = value
        let bytes = JSONValue.array([good, .object(members)]).encoded
        var foundation = "decoded"
        do { _ = try JSONDecoder().decode([Additive].self, from: Data(bytes)) } catch { foundation = Self.summary(error) }
        var ours = "decoded"
        do { _ = try Self.viaJSONValue([Additive].self, bytes) } catch { ours = Self.summary(error) }
        #expect(foundation != "decoded")
        #expect(ours == foundation)
    }

    @Test func aPayloadErrorNamesTheField() throws {
        let good = try JSONValue.parse(Array(JSONEncoder().encode(TestRecords.tartrazine)))
        var members = try #require(good.objectValue)
        members["plain_risk"] = .object(["audience": .array([])])
        let payload = JSONValue.object(["kind": .string("full"), "additives": .array([good, .object(members)])]).encoded
        #expect(throws: PackError.schema(".additives[1].plain_risk.summary is missing")) { try PackPayload.decode(payload) }
        #expect(throws: PackError.self) { try PackPayload.decode(Array(#"{"kind":"full","additives":[}"#.utf8)) }
    }

    struct Nested: Decodable, Equatable {
        var grid: [[Int]]
        var counts: [String: Int]
        var byNumber: [Int: String]
        var optional: [String?]
        var rules: [String: [RegionRule]]
    }

    @Test(arguments: [
        #"{"grid":[[1,2],[]],"counts":{"a":1,"7":2},"byNumber":{"3":"x"},"optional":["a",null],"rules":{"EU":[{"approved":true}]}}"#,
        #"{"grid":[[1,"2"]],"counts":{},"byNumber":{},"optional":[],"rules":{}}"#,
        #"{"grid":[],"counts":{"7":"x"},"byNumber":{},"optional":[],"rules":{}}"#,
        #"{"grid":[],"counts":{},"byNumber":{"x":"y"},"optional":[],"rules":{}}"#,
        #"{"grid":[],"counts":{},"byNumber":{},"optional":[1],"rules":{}}"#,
        #"{"grid":[],"counts":{},"byNumber":{},"optional":[],"rules":{"EU":[{"approved":true},{}]}}"#,
        #"{"grid":{},"counts":[],"byNumber":{},"optional":[],"rules":{}}"#,
    ])
    func collectionsDecodeAndFailAsWithJSONDecoder(_ text: String) throws {
        let bytes = Array(text.utf8)
        let foundation = Result { try JSONDecoder().decode(Nested.self, from: Data(bytes)) }
        let ours = Result { try Self.viaJSONValue(Nested.self, bytes) }
        switch (foundation, ours) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure(let a), .failure(let b)): #expect(Self.summary(a) == Self.summary(b))
        default: Issue.record("JSONDecoder: \(foundation); JSONValueDecoder: \(ours)")
        }
    }

    @Test func integersOutOfRangeAndFloatsFromIntegers() throws {
        struct Numbers: Decodable, Equatable { var small: Int8; var double: Double }
        #expect(try Self.viaJSONValue(Numbers.self, Array(#"{"small":-128,"double":3}"#.utf8)) == Numbers(small: -128, double: 3))
        #expect(throws: DecodingError.self) { try Self.viaJSONValue(Numbers.self, Array(#"{"small":128,"double":3}"#.utf8)) }
    }
}
