import EcodexCore
import Foundation

/// PLACEHOLDER until the store lands: serves the bundled base pack from memory.
public final class AdditiveStore: AdditiveCatalog {
    private let memory: InMemoryCatalog
    public var versions: DataVersions { memory.versions }

    public init(path: String) throws {
        guard let url = Bundle.module.url(forResource: "base-pack", withExtension: "json"),
              let data = try? Data(contentsOf: url),
              let pack = try? JSONDecoder().decode(Pack.self, from: data) else {
            throw EcodexError.lookup("The additive list is missing. Reinstall Ecodex.")
        }
        memory = InMemoryCatalog(pack.additives, versions: DataVersions(dataVersion: pack.dataVersion, packVersion: pack.version))
    }

    public func additive(code: ECode) throws -> Additive? { memory.additive(code: code) }
    public func lexicon() throws -> Lexicon { memory.lexicon() }
}
