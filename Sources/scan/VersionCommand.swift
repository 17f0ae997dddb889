import ArgumentParser
import EcodexCore
import EcodexStore
import Foundation

/// `scan version` (also `scan --version`): the program, data and pack versions.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the program's version and the data and pack versions in use.")

    @Option(help: "Folder for the store.") var dataDir: String?
    @Option(help: "text or json.") var format: DataFormat = .text

    func run() throws {
        let location = Wiring.location(dataDir)
        // A store that does not exist yet is not built just to be named: the bundled versions
        // are what the first scan will install.
        let installed = FileManager.default.fileExists(atPath: location.additivesPath.path)
            ? try withStoreErrors { try AdditiveStore(location: location).versions } : nil
        let versions = installed ?? AdditiveStore.bundledVersions
        let source = installed != nil ? "installed" : "bundled"
        switch format {
        case .json:
            print(JSONRenderer.encode(JSONOutput.Version(version: EcodexVersion.program, dataVersion: versions?.dataVersion,
                                                         packVersion: versions?.packVersion, source: source)))
        case .text:
            print("scan \(EcodexVersion.program)")
            if let versions {
                print("data \(versions.dataVersion) · pack \(versions.packVersion) (\(source))")
            }
        }
    }
}
