import ArgumentParser
import EcodexCore
import EcodexOnline
import EcodexStore
import Foundation

/// `scan update`: fetch and apply the signed update at a URL. When the network
/// is not there, the update is remembered and the next `scan update` applies it.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Download and apply a signed data update. Offline, it is remembered and applied on a later run.",
        discussion: """
            The source is the argument, else $ECODEX_UPDATE_URL, else the update server saved with
            `scan prefs set update-server https://…` (which sends the packs for your region from your installed version),
            else the update remembered from an earlier offline run.
            It may be an https:// URL, a file:// URL, a pack file or a folder of .pack files.
            Nothing is installed unless every signature and checksum checks out.
            """
    )

    @Argument(help: "Where the update is (https:// URL, file, or folder).") var source: String?
    @Option(help: "Folder for the additive store.") var dataDir: String?
    @OptionGroup var trust: TrustOptions
    @OptionGroup var flags: ApplyFlags

    func run() throws {
        let installer = try trust.installer(dataDir: dataDir)
        let pending = installer.pending()
        let env = ProcessInfo.processInfo.environment["ECODEX_UPDATE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if source == nil, env == nil, let server = try PrefsCommand.load().updateServer {
            return try updateFromServer(server, installer: installer)
        }
        guard let source = source ?? env ?? pending?.source else {
            throw ValidationError("Give the update's address: scan update https://... (or set ECODEX_UPDATE_URL).")
        }
        if source == "-" {
            throw ValidationError("An update is a URL, a pack file or a folder, not standard input.")
        }
        if let pending, pending.source == URLText.redacted(source) {
            print("Retrying the update waiting since \(pending.recordedAt): \(pending.source)")
        }
        let outcomes: [PackInstaller.Outcome]
        do {
            if let path = PackFetcher.localPath(source), FileManager.default.fileExists(atPath: path + "/.") {
                outcomes = try withPackErrors {
                    try installer.applyFolder(URL(fileURLWithPath: path), options: flags.options, refused: ApplyFlags.refused)
                }
            } else {
                let bytes = try PackFetcher.fetch(source, seconds: Wiring.downloadSeconds)
                outcomes = [try withPackErrors { try installer.apply(bytes, source: source, options: flags.options) }]
            }
        } catch let error as any ClassifiedError where error.errorClass == .network {
            let e = Failure.classify(error)
            try? installer.recordPending(source: source, reason: e.message)
            throw withClass(EcodexError.network(e.message + " The update is remembered for later.",
                                                advice: .retryUpdate, detail: e.detail))
        }
        installer.clearPending()
        if outcomes.isEmpty { print("Already up to date.") }
        ApplyFlags.notes(outcomes)
        for o in outcomes { print(PackCommand.describe(o)) }
    }
}
