import EcodexCore
import Foundation

/// The `lookup_error`s the stores raise, worded for the shopper: each says what to do next.
/// `detail` carries the technical cause for logs (never label text).
enum StoreErrors {
    static func damaged(_ path: URL, detail: String) -> EcodexError {
        .lookup("The additive list on this computer is damaged. Run `scan store rebuild` to restore it.",
                detail: "\(path.path): \(detail)")
    }

    static func newerSchema(_ path: URL, found: Int, supported: Int) -> EcodexError {
        .lookup("The additive list was made by a newer version of Ecodex. Update Ecodex, or run `scan store rebuild` to restore the built-in list.",
                detail: "\(path.path): schema version \(found), this program reads up to \(supported)")
    }

    static func cannotWrite(_ directory: URL, detail: String) -> EcodexError {
        .lookup("Ecodex cannot write to its data folder \(directory.path) (it is read-only or not a folder). Choose a writable folder with --data-dir or ECODEX_DATA_DIR.",
                detail: detail)
    }

    static func readOnlyUpgrade(_ path: URL, detail: String) -> EcodexError {
        .lookup("The additive list needs an update but its file is read-only. Make \(path.path) writable, or choose another folder with --data-dir or ECODEX_DATA_DIR.",
                detail: detail)
    }

    static func unreadable(_ path: URL, detail: String) -> EcodexError {
        .lookup("Ecodex cannot read the additive list at \(path.path). Check the file's permissions, or run `scan store rebuild`.",
                detail: detail)
    }

    static func basePackMissing(detail: String) -> EcodexError {
        .lookup("The built-in additive list is missing or damaged. Reinstall Ecodex.", detail: detail)
    }

    static func historyDamaged(_ path: URL, detail: String) -> EcodexError {
        .lookup("Your scan history file is damaged. Run `scan history reset` to set it aside and start a new one.",
                detail: "\(path.path): \(detail)")
    }

    static func historyUnavailable(_ path: URL, detail: String) -> EcodexError {
        .lookup("Ecodex cannot save or read scan history at \(path.path). Check that the folder is writable, or choose another with --data-dir or ECODEX_DATA_DIR.",
                detail: detail)
    }
}
