import EcodexCore
import Foundation

// The errors the store module throws, one enum per file it owns: the additive store,
// history, the product list and its import, and pack installs.

/// Why the additive store (`additives.sqlite`) or the data folder cannot be used.
/// Every case is a `lookup_error`; `detail` is the technical cause (never label text).
public enum StoreError: ClassifiedError, Equatable {
    /// The store file is damaged (a bad page, missing tables, records that do not decode).
    case damaged(path: URL, detail: String)
    /// Made by a newer version of Ecodex (schema `found`, this program reads up to `supported`).
    case newerSchema(path: URL, found: Int, supported: Int)
    /// The data folder cannot be created or written (read-only, not a folder, no space).
    case cannotWrite(folder: URL, detail: String)
    /// A folder on the data folder's path, the folder itself or a file in it belongs to
    /// another user (`owner`), who could replace what Ecodex reads there.
    case ownedByOther(path: URL, owner: UInt32)
    /// Such a folder or file is writable by other users (`mode`); see `DataFolder.checkOwnership`.
    case writableByOthers(path: URL, mode: UInt32)
    /// The store needs a schema upgrade but its file or folder is read-only.
    case readOnlyUpgrade(path: URL, detail: String)
    /// The store file cannot be opened for reading (permissions).
    case unreadable(path: URL, detail: String)
    /// A read failed for a reason other than damage.
    case readFailed(path: URL, detail: String)
    /// The base pack built into the program is missing or does not decode.
    case basePackMissing(detail: String)
    /// Building the store from the base pack failed.
    case buildFailed(detail: String)

    public var errorClass: ErrorClass { .lookup }

    public var description: String {
        switch self {
        case .damaged(let path, let detail): "\(path.path) damaged: \(detail)"
        case .newerSchema(let path, let found, let supported):
            "\(path.path): schema version \(found), this program reads up to \(supported)"
        case .cannotWrite(let folder, let detail): "cannot write in \(folder.path): \(detail)"
        case .ownedByOther(let path, let owner): "\(path.path) is owned by uid \(owner)"
        case .writableByOthers(let path, let mode): "\(path.path) is writable by others (mode \(String(mode, radix: 8)))"
        case .readOnlyUpgrade(let path, let detail): "\(path.path) needs an upgrade but is read-only: \(detail)"
        case .unreadable(let path, let detail): "\(path.path) unreadable: \(detail)"
        case .readFailed(let path, let detail): "\(path.path): \(detail)"
        case .basePackMissing(let detail): "base pack: \(detail)"
        case .buildFailed(let detail): "build: \(detail)"
        }
    }
}

/// Why scan history (`user.sqlite`) cannot be read or written. Every case is a `lookup_error`.
public enum HistoryError: ClassifiedError, Equatable {
    /// The history file is damaged or not Ecodex's.
    case damaged(path: URL, detail: String)
    /// Saved by a newer version of Ecodex.
    case newerSchema(path: URL, found: Int, supported: Int)
    /// The file or its folder cannot be written or read.
    case unavailable(path: URL, detail: String)
    /// The file or its folder is read-only: history can be listed but not saved or changed.
    case readOnly(path: URL)

    public var errorClass: ErrorClass { .lookup }

    public var description: String {
        switch self {
        case .damaged(let path, let detail): "\(path.path) damaged: \(detail)"
        case .newerSchema(let path, let found, let supported):
            "\(path.path): schema version \(found), this program reads up to \(supported)"
        case .unavailable(let path, let detail): "\(path.path) unavailable: \(detail)"
        case .readOnly(let path): "\(path.path) is read-only"
        }
    }
}

/// Why the imported product list (`products.sqlite`) cannot be read. Every case is a `lookup_error`.
public enum ProductListError: ClassifiedError, Equatable {
    case damaged(path: URL, detail: String)
    /// Made by a newer version of Ecodex.
    case newerSchema(path: URL, found: Int)
    /// The file cannot be opened for reading (permissions).
    case unreadable(path: URL, detail: String)

    public var errorClass: ErrorClass { .lookup }

    public var description: String {
        switch self {
        case .damaged(let path, let detail): "\(path.path) damaged: \(detail)"
        case .newerSchema(let path, let found): "\(path.path): schema version \(found)"
        case .unreadable(let path, let detail): "\(path.path) unreadable: \(detail)"
        }
    }
}

/// Why a product file could not be imported: an `update_error` when the list cannot be
/// read or written, a `parse_error` when the file is not an Open Food Facts export.
public enum ImportError: ClassifiedError, Equatable {
    /// The finished list could not be renamed into place at `path`.
    case cannotReplace(path: String, detail: String)
    /// The new list could not be written in `folder` (space, permissions).
    case cannotWrite(folder: URL, detail: String)
    /// An add to a list this version cannot extend (schema `version`).
    case cannotAddTo(path: String, version: Int)
    /// Reading the product file failed.
    case readFailed(reason: String)
    /// The first line is longer than `limit` bytes: no export starts so.
    case firstLineTooLong(limit: Int)
    /// The file has no lines.
    case empty
    /// A gzip file.
    case compressed
    /// No `code` and `ingredients_text` columns and not JSON Lines.
    case notAnExport

    public var errorClass: ErrorClass {
        switch self {
        case .cannotReplace, .cannotWrite, .cannotAddTo, .readFailed: .update
        case .firstLineTooLong, .empty, .compressed, .notAnExport: .parse
        }
    }

    public var description: String {
        switch self {
        case .cannotReplace(let path, let detail): "rename to \(path): \(detail)"
        case .cannotWrite(let folder, let detail): "write in \(folder.path): \(detail)"
        case .cannotAddTo(let path, let version): "\(path): schema version \(version)"
        case .readFailed(let reason): "read: \(reason)"
        case .firstLineTooLong(let limit): "first line over \(limit) bytes"
        case .empty: "empty product file"
        case .compressed: "gzip-compressed product file"
        case .notAnExport: "no code and ingredients_text columns"
        }
    }
}

/// Why a pack install or rollback did not happen (a refused pack is a `PackError`).
/// Every case is an `update_error`; nothing was changed.
public enum UpdateError: ClassifiedError, Equatable {
    /// SQLite failed while building the new store.
    case buildFailed(detail: String)
    /// The new store could not be written in `folder`.
    case writeFailed(folder: URL, detail: String)
    /// The new store could not be flushed or renamed in `folder`.
    case saveFailed(folder: URL, detail: String)
    /// No earlier store is kept.
    case nothingToRollBack
    /// The kept earlier store is damaged.
    case previousDamaged
    /// A folder of packs that cannot be listed.
    case cannotListFolder(URL)

    public var errorClass: ErrorClass { .update }

    public var description: String {
        switch self {
        case .buildFailed(let detail): "build: \(detail)"
        case .writeFailed(let folder, let detail): "write in \(folder.path): \(detail)"
        case .saveFailed(let folder, let detail): "save in \(folder.path): \(detail)"
        case .nothingToRollBack: "no previous store"
        case .previousDamaged: "previous store damaged"
        case .cannotListFolder(let folder): "cannot list \(folder.path)"
        }
    }
}
