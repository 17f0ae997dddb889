/// One step of a file's schema history: the SQL that takes it from
/// `version - 1` to `version`. `PRAGMA user_version` records the last step applied.
struct Migration {
    var version: Int
    var sql: String
}

extension Connection {
    /// Applies every migration newer than the file's `user_version`, each in
    /// its own transaction together with the version bump, so a crash leaves
    /// the file at a whole version.
    func migrate(_ migrations: [Migration]) throws {
        let current = try userVersion()
        for migration in migrations where migration.version > current {
            try transaction {
                try execute(migration.sql)
                try setUserVersion(migration.version)
            }
        }
    }

    /// Applies the migrations newer than `current` inside the caller's transaction,
    /// where the caller read `current`: another process cannot migrate in between.
    func applyMigrations(_ migrations: [Migration], from current: Int) throws {
        for migration in migrations where migration.version > current {
            try execute(migration.sql)
            try setUserVersion(migration.version)
        }
    }
}
