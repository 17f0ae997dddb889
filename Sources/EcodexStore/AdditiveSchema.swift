/// The schema of `additives.sqlite`, as a list of migrations.
///
/// The file is built whole from a pack, so in practice it is created at the
/// newest version; the list still exists so that a store installed by an older
/// Ecodex (or by a pack update) can be brought forward in place instead of
/// being rebuilt from the base pack, which could downgrade the data.
enum AdditiveSchema {
    static let migrations: [Migration] = [
        Migration(version: 1, sql: """
            CREATE TABLE meta (
                key   TEXT NOT NULL PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;

            -- One row per additive: normalized columns for lookups, and the
            -- whole record as JSON (the pack schema) to decode into `Additive`.
            CREATE TABLE additives (
                code            TEXT NOT NULL PRIMARY KEY CHECK (code GLOB 'E[1-9]*'),
                number          INTEGER NOT NULL CHECK (number BETWEEN 1 AND 1999),
                parent          TEXT REFERENCES additives (code) DEFERRABLE INITIALLY DEFERRED
                                CHECK (parent IS NULL OR parent <> code),
                canonical_name  TEXT NOT NULL CHECK (length(canonical_name) > 0),
                classes         TEXT NOT NULL,
                evidence_level  TEXT NOT NULL CHECK (evidence_level IN ('Regulatory', 'Consensus', 'Limited')),
                label_frequency INTEGER NOT NULL DEFAULT 0 CHECK (label_frequency >= 0),
                record          TEXT NOT NULL CHECK (json_valid(record))
            ) WITHOUT ROWID;
            CREATE INDEX additives_parent ON additives (parent) WHERE parent IS NOT NULL;

            -- Every name of every additive. `key` is NameKey.normalize(name);
            -- `kind` is 'exact' for the first name in each language, 'alias' for the rest.
            CREATE TABLE names (
                id           INTEGER PRIMARY KEY,
                key          TEXT NOT NULL CHECK (length(key) > 0),
                name         TEXT NOT NULL CHECK (length(name) > 0),
                code         TEXT NOT NULL REFERENCES additives (code) ON DELETE CASCADE,
                lang         TEXT NOT NULL CHECK (length(lang) BETWEEN 2 AND 8),
                context_only INTEGER NOT NULL DEFAULT 0 CHECK (context_only IN (0, 1)),
                kind         TEXT NOT NULL CHECK (kind IN ('exact', 'alias')),
                UNIQUE (code, lang, name)
            );
            CREATE INDEX names_key ON names (key, kind, code);

            -- Trigram index over the normalized names: substring and typo-tolerant search.
            -- Results are ranked in Swift, not by bm25, so the per-row sizes bm25 needs are not kept.
            CREATE VIRTUAL TABLE names_fts USING fts5 (
                key, content = 'names', content_rowid = 'id', tokenize = 'trigram', columnsize = 0
            );
            """),
    ]

    /// The version a store must have for this program to read it.
    static var version: Int { migrations.last!.version }
}
