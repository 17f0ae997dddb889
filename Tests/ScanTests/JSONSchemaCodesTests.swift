import EcodexCore
import Foundation
@testable import scan
import Testing

/// The codes the schema lists are exactly the codes the program prints, so a new warning or
/// piece of advice cannot ship without its place in the contract.
@Suite struct JSONSchemaCodesTests {
    static func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: ScanBinary.root.appendingPathComponent("docs/schema/ecodex-output.schema.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func enumAt(_ path: [String], in object: [String: Any]) -> [String]? {
        var node: Any = object
        for key in path { node = (node as? [String: Any])?[key] as Any }
        return (node as? [String: Any])?["enum"] as? [String]
    }

    @Test func warningCodesMatchTheSchema() throws {
        let listed = Self.enumAt(["$defs", "warning", "properties", "code"], in: try Self.schema())
        #expect(Set(listed ?? []) == Set(ScanWarning.codes))
    }

    @Test func adviceCodesMatchTheSchema() throws {
        let error = try #require(((try Self.schema()["$defs"] as? [String: Any])?["error"] as? [String: Any]))
        let advice = (((error["properties"] as? [String: Any])?["error"] as? [String: Any])?["properties"] as? [String: Any])?["advice"]
        let object = ((advice as? [String: Any])?["anyOf"] as? [[String: Any]])?.first
        let listed = Self.enumAt(["properties", "code"], in: object ?? [:])
        #expect(Set(listed ?? []) == Set(Advice.allCases.map(\.code)))
        #expect(Advice.rebuildStore.code == "rebuild-store")
    }

    @Test func theSchemaVersionIsTheOneEveryObjectCarries() throws {
        let version = ((try Self.schema()["$defs"] as? [String: Any])?["schemaVersion"] as? [String: Any])?["const"] as? String
        #expect(version == JSONRenderer.schemaVersion)
    }
}
