import EcodexCore
import Foundation

/// Where Ecodex keeps its data files.
///
/// The directory comes from, in order: the `--data-dir` option, the
/// `ECODEX_DATA_DIR` environment variable, `$XDG_DATA_HOME/ecodex`, and
/// `~/.local/share/ecodex`. It holds two SQLite files: `additives.sqlite`
/// (built from a pack, replaced whole by a rebuild or a pack update) and
/// `user.sqlite` (scan history and product cache, never touched by a rebuild),
/// and `additives.index`, the parser saved for the additive store (`ParserImage`), which goes
/// to `$XDG_CACHE_HOME/ecodex` (or `~/.cache/ecodex`) when no data folder was named.
public struct StoreLocation: Sendable, Equatable {
    public var directory: URL
    /// The additive store, built from a pack.
    public var additivesPath: URL
    /// The user's own data: scan history and product cache.
    public var userPath: URL
    /// Where regenerable files go (`$XDG_CACHE_HOME/ecodex`) for the default data folder; nil
    /// when a data folder was named, which then keeps them so it stays self-contained.
    public var cacheDirectory: URL?

    /// The parser's name index saved for the installed store (`ParserImage`): rebuilt with the
    /// store, never trusted when it does not match it. In the cache folder when that can be
    /// made and written (0700), else beside the store.
    public var parserImagePath: URL {
        if let cache = cacheDirectory, (try? PrivateFile.makeFolder(cache)) != nil, access(cache.path, W_OK) == 0 {
            return cache.appendingPathComponent("additives.index")
        }
        return directory.appendingPathComponent("additives.index")
    }

    public init(directory: URL, cacheDirectory: URL? = nil) {
        self.cacheDirectory = cacheDirectory?.standardizedFileURL
        self.directory = directory.standardizedFileURL
        self.additivesPath = self.directory.appendingPathComponent("additives.sqlite")
        self.userPath = self.directory.appendingPathComponent("user.sqlite")
    }

    /// True when the folder exists but cannot be written (a read-only mount, a folder
    /// without write permission): stores can be read, nothing can be saved.
    public var isReadOnly: Bool {
        FileManager.default.fileExists(atPath: directory.path) && access(directory.path, W_OK) != 0
    }

    /// Resolves the data directory from an option value and the environment (see the type's doc).
    /// Empty values count as unset.
    public static func resolve(override: String?, environment: [String: String]) -> StoreLocation {
        func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
        if let path = nonEmpty(override) ?? nonEmpty(environment["ECODEX_DATA_DIR"]) {
            return StoreLocation(directory: URL(fileURLWithPath: expandTilde(path, environment: environment)))
        }
        let home = nonEmpty(environment["HOME"]) ?? FileManager.default.homeDirectoryForCurrentUser.path
        // The XDG spec says a relative XDG_DATA_HOME or XDG_CACHE_HOME is invalid and must be ignored.
        func xdg(_ name: String, else fallback: String) -> URL {
            URL(fileURLWithPath: nonEmpty(environment[name]).flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/" + fallback)
                .appendingPathComponent("ecodex")
        }
        return StoreLocation(directory: xdg("XDG_DATA_HOME", else: ".local/share"),
                             cacheDirectory: xdg("XDG_CACHE_HOME", else: ".cache"))
    }

    private static func expandTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }
}
