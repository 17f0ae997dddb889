import EcodexCore
import Foundation

/// The `lookup_error`s the stores raise, worded for the shopper: each says what to do next.
/// `detail` carries the technical cause for logs (never label text).
enum StoreErrors {
    static func damaged(_ path: URL, detail: String) -> EcodexError {
        .lookup("The additive list on this computer is damaged.", advice: .rebuildStore,
                detail: "\(path.path): \(detail)")
    }

    static func newerSchema(_ path: URL, found: Int, supported: Int) -> EcodexError {
        .lookup("The additive list was made by a newer version of Ecodex. Update Ecodex, or restore the built-in list.",
                advice: .rebuildStore,
                detail: "\(path.path): schema version \(found), this program reads up to \(supported)")
    }

    static func cannotWrite(_ directory: URL, detail: String) -> EcodexError {
        .lookup("Ecodex cannot write to its data folder \(directory.path) (it is read-only or not a folder).", advice: .chooseDataFolder,
                detail: detail)
    }

    static func readOnlyUpgrade(_ path: URL, detail: String) -> EcodexError {
        .lookup("The additive list needs an update but its file is read-only. Make \(path.path) writable.", advice: .chooseDataFolder,
                detail: detail)
    }

    static func unreadable(_ path: URL, detail: String) -> EcodexError {
        .lookup("Ecodex cannot read the additive list at \(path.path). Check the file's permissions.", advice: .rebuildStore,
                detail: detail)
    }

    static func basePackMissing(detail: String) -> EcodexError {
        .lookup("The built-in additive list is missing or damaged. Reinstall Ecodex.", detail: detail)
    }

    static func historyDamaged(_ path: URL, detail: String) -> EcodexError {
        .lookup("Your scan history file is damaged.", advice: .resetHistory,
                detail: "\(path.path): \(detail)")
    }

    static func historyUnavailable(_ path: URL, detail: String) -> EcodexError {
        .lookup("Ecodex cannot save or read scan history at \(path.path). Check that the folder is writable.", advice: .chooseDataFolder,
                detail: detail)
    }
}
