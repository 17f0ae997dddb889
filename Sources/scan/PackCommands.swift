import ArgumentParser
import EcodexCore
import EcodexOnline
import EcodexStore
import Foundation

struct PackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Rule packs: see the installed versions, apply or roll back signed updates; build, sign and verify them (publishers).",
        subcommands: [Status.self, Apply.self, Rollback.self, Verify.self, Build.self, Sign.self, Keygen.self, Validate.self]
    )

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Validate packs/base and write the built pack (by default, the base pack shipped with scan), or an unsigned update with --update.")
        @Option(help: "Pack source folder.") var source = "packs/base"
        static let basePackPath = "Sources/EcodexStore/Resources/base-pack.json"
        @Option(help: "Where to write the built pack.") var output = basePackPath
        @Option(help: "Where to write the pack's label languages and regions (default with the base pack: the program's own).")
        var knowledgeOutput: String?
        @Option(help: "Write an unsigned pack update file here instead (full, or a delta with --diff-from).")
        var update: String?
        @Option(help: "With --update: the pack the delta starts from (a built pack JSON such as base-pack.json, or a full .pack file).")
        var diffFrom: String?
        @Option(help: "With --update: days until the pack expires; after that, clients refuse it unless told --allow-expired.")
        var expiresIn: Int = Int(PackBuilder.defaultLifetime / 86_400)

        func run() throws {
            let pack = try loadValid(source)
            guard let update else {
                if diffFrom != nil { throw ValidationError("--diff-from needs --update FILE.") }
                try pack.write(to: URL(fileURLWithPath: output))
                let ownKnowledge = output == Self.basePackPath ? "Sources/EcodexCore/Resources/label-knowledge.json" : nil
                if let knowledge = pack.knowledge, let path = knowledgeOutput ?? ownKnowledge {
                    try knowledge.encoded().write(to: URL(fileURLWithPath: path), options: .atomic)
                }
                print("Built pack \(pack.version) (data \(pack.dataVersion)): \(pack.additives.count) additives → \(output)")
                return
            }
            guard expiresIn >= 1 else { throw ValidationError("--expires-in must be at least 1 day.") }
            let lifetime = TimeInterval(expiresIn) * 86_400
            let file = try withPackErrors {
                if let diffFrom { return try PackBuilder.delta(from: try PackCommand.loadBase(diffFrom), to: pack, lifetime: lifetime) }
                return try PackBuilder.full(pack, lifetime: lifetime)
            }
            try PackCommand.writeAtomically(file.encoded, to: update)
            let m = file.manifest
            if case .delta(let d)? = try? PackPayload.decode(file.payloadBytes) {
                print("Built delta \(m.diffFrom!) → \(m.version) (data \(m.dataVersion)): \(d.added.count) added, "
                    + "\(d.changed.count) changed, \(d.removed.count) removed → \(update)")
            } else {
                print("Built full pack \(m.version) (data \(m.dataVersion)): \(m.payload.records) additives → \(update)")
            }
            print("It expires at \(m.expiresAt); clients refuse it after that.")
            print("Unsigned: it needs \(TrustedKeys.shipped.requiredSignatures) signatures (`scan pack sign \(update) --key FILE`) before it can be applied.")
        }
    }

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Make a publisher signing key. The private key file is readable by you only; keep it out of the repository.")
        @Option(help: "Who holds the key (shown when a pack is verified).") var owner: String
        @Option(help: "Where to write the private key file (must not exist).") var out: String
        @Option(help: "Also add the public key to this trusted-keys file (e.g. packs/keys/trusted.json).") var trust: String?

        func run() throws {
            let key = PublisherKey(owner: owner)
            try withPackErrors { try key.write(to: out) }
            print("Private key for \(owner) written to \(out) (mode 0600). Never commit, share or print it.")
            print("Public key entry for packs/keys/trusted.json:")
            print(String(decoding: key.trustEntry.json.encoded, as: UTF8.self))
            if let trust {
                let url = URL(fileURLWithPath: trust)
                var keys = FileManager.default.fileExists(atPath: trust)
                    ? try withPackErrors { try TrustedKeys(contentsOf: url, requireSatisfiable: false) }
                    : TrustedKeys(requiredSignatures: 2, keys: [])
                keys.keys.append(key.trustEntry)
                try PackCommand.writeAtomically(Array(keys.fileText.utf8), to: trust)
                print("Added to \(trust) (\(keys.keys.count) keys, \(keys.requiredSignatures) signatures required).")
            }
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign",
            abstract: "Add your signature to a pack update (after reviewing its changes). Two different trusted keys must sign.")
        @Argument(help: "The pack file; signed in place unless --output is given.") var file: String
        @Option(help: "Your private key file (from `scan pack keygen`).") var key: String
        @Option(help: "Write the signed pack here instead.") var output: String?

        func run() throws {
            let signer = try withPackErrors { try PublisherKey(contentsOf: key) }
            var pack = try withPackErrors { try PackFile(bytes: try PackFetcher.fetch(file, seconds: Wiring.downloadSeconds)) }
            // Sign only what checks out: the payload must be the one the manifest names.
            try withPackErrors {
                guard PackFile.checksum(pack.payloadBytes) == pack.manifest.checksum, pack.payloadBytes.count == pack.manifest.payload.size else {
                    throw PackError.checksum("the payload differs from the manifest's checksum")
                }
                _ = try PackPayload.decode(pack.payloadBytes)
            }
            pack.manifest = try signer.sign(pack.manifest)
            try PackCommand.writeAtomically(pack.encoded, to: output ?? file)
            print("Signed \(pack.manifest.version) as \(signer.owner) (key \(signer.id)); it now has \(pack.manifest.signatures.count) signature(s).")
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "verify", abstract: "Check a pack's signatures, checksum and records without installing it.")
        @Argument(help: "The pack file or URL.") var file: String
        @OptionGroup var trust: TrustOptions

        func run() throws {
            let bytes = try withStoreErrors { try PackFetcher.fetch(file, seconds: Wiring.downloadSeconds) }
            let keys = try withPackErrors { try trust.load().keys }
            let verified = try withPackErrors { try PackVerifier.verify(bytes, trust: keys) }
            let m = verified.manifest
            let kind = m.diffFrom.map { "delta from \($0)" } ?? "full pack"
            print("OK: pack \(m.version) (\(kind)), data \(m.dataVersion), regions \(m.regions.map(\.rawValue).joined(separator: ", ")), "
                + "\(m.payload.records) records, signed by \(verified.signers.joined(separator: " and ")), expires \(m.expiresAt).")
        }
    }

    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apply",
            abstract: "Verify and install a signed pack update (a file, a file:// or https:// URL, or a folder of .pack files).")
        @Argument(help: "The pack file, URL or folder.") var source: String
        @Option(help: "Folder for the additive store.") var dataDir: String?
        @OptionGroup var trust: TrustOptions
        @OptionGroup var flags: ApplyFlags

        func run() throws {
            let installer = try trust.installer(dataDir: dataDir)
            let outcomes: [PackInstaller.Outcome]
            if let path = PackFetcher.localPath(source), isDirectory(path) {
                outcomes = try withPackErrors {
                    try installer.applyFolder(URL(fileURLWithPath: path), options: flags.options, refused: ApplyFlags.refused)
                }
                if outcomes.isEmpty { print("Nothing to apply: no pack in \(path) is newer than the installed data.") }
            } else {
                let bytes = try withStoreErrors { try PackFetcher.fetch(source, seconds: Wiring.downloadSeconds) }
                outcomes = [try withPackErrors { try installer.apply(bytes, source: source, options: flags.options) }]
            }
            ApplyFlags.notes(outcomes)
            for o in outcomes { print(PackCommand.describe(o)) }
        }

        private func isDirectory(_ path: String) -> Bool {
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
        }
    }

    struct Rollback: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rollback", abstract: "Put back the additive data as it was before the last update.")
        @Option(help: "Folder for the additive store.") var dataDir: String?

        func run() throws {
            let outcome = try withStoreErrors { try PackInstaller(location: Wiring.location(dataDir)).rollback() }
            print("Rolled back: pack \(outcome.from?.packVersion ?? "?") → \(outcome.to.packVersion) (data \(outcome.to.dataVersion)).")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "The installed data version, pack version per region, last update, rollback and pending updates.")
        @Option(help: "Folder for the additive store.") var dataDir: String?
        @Option(help: "Output format: text or json.") var format: DataFormat = .text

        func run() throws {
            var s = try withStoreErrors { try PackInstaller(location: Wiring.location(dataDir)).status() }
            // Installs before user info was stripped may still carry it: never show it.
            s.installedFrom = URLText.redacted(s.installedFrom)
            if let source = s.pending?.source { s.pending?.source = URLText.redacted(source) }
            if format == .json {
                print(JSONRenderer.encode(JSONOutput.PackStatus(s, trustedKeys: TrustedKeys.shipped.keys.count)))
                return
            }
            print("Data version \(s.versions.dataVersion) · pack \(s.versions.packVersion)")
            print("Pack version per region: " + s.regions.map { "\($0.rawValue) \(s.versions.packVersion)" }.joined(separator: ", "))
            print("Last update: \(s.installedAt.isEmpty ? "never" : s.installedAt) from \(s.installedFrom)"
                + (s.signers.isEmpty ? "" : ", signed by \(s.signers.joined(separator: " and "))"
                    + (s.verified ? "" : " (keys not built into scan)")))
            print("Verified: " + (s.verified ? "yes, by the keys built into scan"
                : "no: installed with other keys\(s.trustedKeysFile.map { " (\($0))" } ?? ""); "
                    + "every result says so until `scan store rebuild` or a signed update replaces it"))
            print("Expires: " + (s.expiresAt ?? "never (the data built into scan)"))
            print("Highest version installed here: " + (s.highestVersion.map { "\($0) (older packs are refused)" } ?? "none"))
            print("Rollback: " + (s.rollbackTo.map { "to pack \($0.packVersion) (data \($0.dataVersion)) with `scan pack rollback`" } ?? "nothing to roll back to"))
            print("Pending updates: " + (s.pending.map { "\($0.source), waiting since \($0.recordedAt); run `scan update` when online" } ?? "none"))
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check every record in packs/base and print coverage, including the share of real label mentions with a rule per region.")
        @Option(help: "Pack source folder.") var source = "packs/base"
        @Option(help: "Ingredient texts to measure rule coverage on: JSON Lines with a \"text\" field (Open Food Facts data, ODbL).")
        var texts = "Tests/EcodexCoreTests/Fixtures/ingredient-texts.jsonl"
        @Option(help: "How many uncovered codes to name per region.") var showMissing = 8

        func run() throws {
            let pack = try loadValid(source)
            print(PackCoverage(pack).report)
            let file: String
            do {
                file = try String(contentsOfFile: texts, encoding: .utf8)
            } catch {
                throw withClass(Failure.noTexts(texts))
            }
            print(RuleCoverage(pack: pack, texts: RuleCoverage.texts(jsonLines: file)).report(showMissing: showMissing))
            print(RuleProvenance.report(pack))
            try refuse(RuleProvenance.issues(pack), "region rule problem(s) (citation or conditions)")
        }
    }

    /// Loads and validates; any problem is an update_error listing every issue.
    static func loadValid(_ source: String) throws -> Pack {
        let pack: Pack
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder.boolValue else {
            throw withClass(Failure.noPackSource(URL(fileURLWithPath: source).path))
        }
        do {
            pack = try PackSource.load(directory: URL(fileURLWithPath: source))
        } catch {
            throw withClass(.update("The pack source could not be read: \(error)"))
        }
        try refuse(PackSource.validate(pack), "problem(s)")
        return pack
    }

    /// Lists the first 50 issues on standard error and fails with their count.
    static func refuse(_ issues: [ValidationIssue], _ what: String) throws {
        guard !issues.isEmpty else { return }
        for issue in issues.prefix(50) { FileHandle.standardError.write(Data("  \(issue)\n".utf8)) }
        throw withClass(.update("The pack source has \(issues.count) \(what); fix them and build again."))
    }
}

extension PackCommand {
    /// Reads the pack a delta starts from: a built pack JSON, or a full pack file.
    static func loadBase(_ path: String) throws -> Pack {
        let bytes = try PackFetcher.fetch(path)
        if let file = try? PackFile(bytes: bytes) {
            guard case .full(let all) = try PackPayload.decode(file.payloadBytes) else {
                throw PackError.malformed("\(path) is a delta; a delta must start from a full pack")
            }
            let m = file.manifest
            return Pack(version: m.version.description, dataVersion: m.dataVersion, regions: m.regions, additives: all)
        }
        do {
            return try Pack.decode(bytes)
        } catch {
            throw PackError.malformed("\(path) is neither a built pack nor a pack file")
        }
    }

    /// Writes beside the target and renames over it, so a reader never sees half a file.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw withClass(.update("Cannot write \(path): \(error.localizedDescription)"))
        }
    }

    static func describe(_ o: PackInstaller.Outcome) -> String {
        "Installed pack \(o.to.packVersion) (data \(o.to.dataVersion)), replacing \(o.from?.packVersion ?? "nothing")"
            + (o.signers.isEmpty ? "" : "; signed by \(o.signers.joined(separator: " and "))")
            + ". Undo with `scan pack rollback`."
    }
}

/// Which publisher keys to trust: the keys built into scan unless this command is given
/// `--trusted FILE`. Nothing else replaces them (no environment variable, no saved setting),
/// so a replaced trust root lasts one command, and data installed with it stays marked.
struct TrustOptions: ParsableArguments {
    @Option(help: "Trusted-keys file to check signatures with instead of the keys built into scan (publishers). Data installed with it is marked as not verified.")
    var trusted: String?

    /// The trusted keys, and the file they came from when they replace the built-in ones.
    /// Replacing the trust root is never silent: it is said on standard error here, and
    /// an install writes the file's path to `pack-updates.log` and the store.
    func load() throws(PackError) -> (keys: TrustedKeys, origin: String?) {
        guard let path = trusted else { return (.shipped, nil) }
        let keys = try TrustedKeys(contentsOf: URL(fileURLWithPath: path))
        FileHandle.standardError.write(Data(
            "scan: note: trusting the \(keys.keys.count) key(s) in \(path) (--trusted) instead of the keys built into scan\n".utf8))
        return (keys, path)
    }

    /// An installer for `dataDir` with these keys.
    func installer(dataDir: String?) throws -> PackInstaller {
        let (keys, origin) = try withPackErrors { try load() }
        return PackInstaller(location: Wiring.location(dataDir), trust: keys, trustOrigin: origin)
    }
}

/// The exceptions `scan pack apply` and `scan update` can be told to make; each is logged.
struct ApplyFlags: ParsableArguments {
    @Flag(help: "Install a pack older than the highest version installed here before (a repair; signatures are still checked). Logged.")
    var allowDowngrade = false
    @Flag(help: "Install a pack whose signed expiry date has passed. Logged.")
    var allowExpired = false

    var options: PackInstaller.ApplyOptions { .init(allowDowngrade: allowDowngrade, allowExpired: allowExpired) }

    /// Prints what an install did beyond the default rules, and where it was logged.
    static func notes(_ outcomes: [PackInstaller.Outcome]) {
        for o in outcomes {
            if let below = o.below {
                FileHandle.standardError.write(Data("scan: note: pack \(o.to.packVersion) is older than version \(below) installed here before; installed because of --allow-downgrade (logged in pack-updates.log)\n".utf8))
            }
            if let expired = o.expiredAt {
                FileHandle.standardError.write(Data("scan: note: pack \(o.to.packVersion) expired at \(expired); installed because of --allow-expired (logged in pack-updates.log)\n".utf8))
            }
        }
    }

    /// Says why each file of a folder was passed over.
    static func refused(_ url: URL, _ error: PackError) {
        FileHandle.standardError.write(Data("scan: note: skipped \(url.path): \(error.reason)\n".utf8))
    }
}

/// Runs `body`; a refused pack or a store error is printed and becomes exit code 15 (or its class's code).
func withPackErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let e as PackError {
        var error = Failure.worded(e)
        switch e {
        case .downgrade: error.message += " To install it anyway as a repair, run `scan pack apply` again with --allow-downgrade."
        case .expired: error.message += " To install it anyway, run `scan pack apply` again with --allow-expired."
        default: break
        }
        throw withClass(error)
    } catch let e as any ClassifiedError {
        throw withClass(e)
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
        lines.append("Names and class words per label language (names / records with one / class words):")
        let classWords = ClassWordCounts.perLanguage
        for lang in ClassWordCounts.labelLanguages + ["us"] {
            let words = ClassWordCounts.handLanguages.contains(lang) || lang == "us" ? "hand table" : "\(classWords[lang] ?? 0)"
            lines.append("  \(lang): \(names[lang] ?? 0) / \(records[lang] ?? 0) / \(words)")
        }
        lines.append("  (hand table: \(ClassWordCounts.handTable) class phrases in \(ClassWordCounts.handLanguages.joined(separator: ", ")) "
            + "and US function phrases)")
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
