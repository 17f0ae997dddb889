import EcodexCore
@testable import EcodexStore
import Foundation
import Testing

/// Writes the fixture pack as a built pack when `ECODEX_WRITE_FIXTURE_PACK` names a path:
/// how the placeholder `Resources/base-pack.json` was made.
@Test(.enabled(if: ProcessInfo.processInfo.environment["ECODEX_WRITE_FIXTURE_PACK"] != nil))
func writeFixturePack() throws {
    let path = try #require(ProcessInfo.processInfo.environment["ECODEX_WRITE_FIXTURE_PACK"])
    try Fixtures.pack().write(to: URL(fileURLWithPath: path))
}
