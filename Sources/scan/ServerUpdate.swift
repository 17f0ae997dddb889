import EcodexCore
import EcodexOnline
import EcodexStore
import Foundation

extension UpdateCommand {
    /// `scan update` with an update server saved: asks it for the packs that take the
    /// installed version to its newest for the user's region, downloads them all,
    /// then installs them in order, each verified before it replaces the store.
    func updateFromServer(_ server: String, installer: PackInstaller) throws {
        let region = Region.resolve(saved: try PrefsCommand.load().region, environment: ProcessInfo.processInfo.environment)
        do {
            let client = try UpdateServerClient(server: server)
            let installed = try installer.status().updatesFrom
            let plan = try client.plan(region: region, from: installed)
            if plan.chain.isEmpty {
                installer.clearPending()
                if plan.complete || plan.latest == installed {
                    print("Already up to date (pack \(installed), region \(region.rawValue)).")
                    return
                }
                throw EcodexError.update("The update server has no update path from pack \(installed) to \(plan.latest). Ask its administrator for a full pack.")
            }
            // Everything is downloaded before anything is installed, so a connection
            // lost half-way leaves the store as it was and the update pending.
            let files = try plan.chain.map { try client.download($0) }
            let outcomes = try withPackErrors {
                try installer.applyChain(zip(plan.chain, files).map { ($1, server + " (pack \($0.version))") }, options: flags.options)
            }
            installer.clearPending()
            ApplyFlags.notes(outcomes)
            for o in outcomes { print(PackCommand.describe(o)) }
        } catch let error as any ClassifiedError where error.errorClass == .network {
            let e = Failure.classify(error)
            try? installer.recordPending(source: server, reason: e.message)
            throw withClass(EcodexError.network("You seem to be offline, or the update server is not answering.",
                                                advice: .retryUpdate, detail: e.detail))
        } catch let e as any ClassifiedError {
            throw withClass(e)
        } catch let e as EcodexError {
            throw withClass(e)
        }
    }
}
