import ArgumentParser
import EcodexCore
import Foundation

struct PackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Rule packs for data maintainers: build the base pack from packs/base, validate it.",
        subcommands: [Build.self, Validate.self]
    )

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate packs/base and write the built pack (by default, the base pack shipped with scan).")
        @Option(help: "Pack source folder.") var source = "packs/base"
        @Option(help: "Where to write the built pack.") var output = "Sources/EcodexStore/Resources/base-pack.json"
        func run() throws {
            let pack = try loadValid(source)
            try pack.write(to: URL(fileURLWithPath: output))
            print("Built pack \(pack.version) (data \(pack.dataVersion)): \(pack.additives.count) additives → \(output)")
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check every record in packs/base and print coverage.")
        @Option(help: "Pack source folder.") var source = "packs/base"
        func run() throws {
            let pack = try loadValid(source)
            print(PackCoverage(pack).report)
        }
    }

    /// Loads and validates; any problem is an update_error listing every issue.
    static func loadValid(_ source: String) throws -> Pack {
        let pack: Pack
        do {
            pack = try PackSource.load(directory: URL(fileURLWithPath: source))
        } catch {
            throw withClass(.update("The pack source could not be read: \(error)"))
        }
        let issues = PackSource.validate(pack)
        if !issues.isEmpty {
            for issue in issues.prefix(50) { FileHandle.standardError.write(Data("  \(issue)\n".utf8)) }
            throw withClass(.update("The pack source has \(issues.count) problem(s); fix them and build again."))
        }
        return pack
    }
}

/// Counts for `scan pack validate`: records, names per language, rules per region.
struct PackCoverage {
    let pack: Pack
    init(_ pack: Pack) { self.pack = pack }

    var report: String {
        var lines = ["Pack \(pack.version), data \(pack.dataVersion): \(pack.additives.count) records, "
            + "\(pack.additives.filter { $0.parent != nil }.count) of them sub-forms"]
        var names: [String: Int] = [:], records: [String: Int] = [:]
        for a in pack.additives {
            for (lang, list) in a.names where !list.isEmpty {
                names[lang, default: 0] += list.count
                records[lang, default: 0] += 1
            }
        }
        lines.append("Names per language (names / records with one):")
        for lang in ["en", "de", "fr", "es", "it", "nl", "us"] {
            lines.append("  \(lang): \(names[lang] ?? 0) / \(records[lang] ?? 0)")
        }
        lines.append("Rules per region (approved / not approved / warning required):")
        for region in Region.allCases {
            let rules = pack.additives.compactMap { $0.rule(for: region) }
            lines.append("  \(region.rawValue): \(rules.count) rules — \(rules.filter(\.approved).count) / "
                + "\(rules.filter { !$0.approved }.count) / \(rules.filter(\.warningRequired).count)")
        }
        let refs = pack.additives.map(\.references.count)
        lines.append("References: \(refs.reduce(0, +)) (every record has at least \(refs.min() ?? 0))")
        return lines.joined(separator: "\n")
    }
}
