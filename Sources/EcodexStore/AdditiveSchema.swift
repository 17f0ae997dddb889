/// The schema of `additives.sqlite`, as a list of migrations.
///
/// The file is built whole from a pack, so in practice it is created at the
/// newest version; the list still exists so that a store installed by an older
/// Ecodex (or by a pack update) can be brought forward in place instead of
/// being rebuilt from the base pack, which could downgrade the data.
///
/// A store older than the first migration here has a layout no SQL step can
/// reach (version 1 kept each record as plain JSON, which version 2 compresses):
/// it is rebuilt from its own records and metadata instead (`StoreBuilder.upgrade`),
/// so it keeps whatever pack it held.
enum AdditiveSchema {
    static let migrations: [Migration] = [
        Migration(version: 2, sql: """
            CREATE TABLE meta (
                key   TEXT NOT NULL PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;

            -- The dictionary the records are compressed against (see RecordCodec): one row.
            CREATE TABLE record_dictionary (
                id         INTEGER PRIMARY KEY CHECK (id = 1),
                dictionary BLOB NOT NULL
            );

            -- One row per additive: normalized columns for lookups, and the whole
            -- record as JSON (the pack schema), compressed, to decode into `Additive`.
            -- A rowid table: records of a few kilobytes fill pages far better than in a
            -- WITHOUT ROWID b-tree, which moves rows that large to overflow pages.
            -- `declared_parent` is the record's own `parent` field, which a delta needs
            -- without decoding every record; `parent` is the closest code the store has.
            CREATE TABLE additives (
                code            TEXT NOT NULL PRIMARY KEY CHECK (code GLOB 'E[1-9]*'),
                number          INTEGER NOT NULL CHECK (number BETWEEN 1 AND 1999),
                parent          TEXT REFERENCES additives (code) DEFERRABLE INITIALLY DEFERRED
                                CHECK (parent IS NULL OR parent <> code),
                declared_parent TEXT,
                canonical_name  TEXT NOT NULL CHECK (length(canonical_name) > 0),
                classes         TEXT NOT NULL,
                evidence_level  TEXT NOT NULL CHECK (evidence_level IN ('Regulatory', 'Consensus', 'Limited')),
                label_frequency INTEGER NOT NULL DEFAULT 0 CHECK (label_frequency >= 0),
                record          BLOB NOT NULL CHECK (typeof(record) = 'blob' AND length(record) > 0)
            );
            CREATE INDEX additives_parent ON additives (parent) WHERE parent IS NOT NULL;

            -- Every name of every additive, one row per (code, lang, name): the writer
            -- leaves out repeats. `key` is NameKey.normalize(name); `exact` is 1 for the
            -- first name in each language, 0 for the rest (aliases).
            -- Names are found through names_fts (keys of 3 letters or more: whole keys,
            -- substrings and typos), so no b-tree index repeats every key; the few keys
            -- shorter than a trigram have a partial index of their own. `code` is not a
            -- foreign key: with no index on it, SQLite would scan every name for each record
            -- a delta removes (3 ms each); the writers remove a record's names themselves,
            -- and `scan store check` looks for names whose record is missing.
            CREATE TABLE names (
                id           INTEGER PRIMARY KEY,
                key          TEXT NOT NULL CHECK (length(key) > 0),
                name         TEXT NOT NULL CHECK (length(name) > 0),
                code         TEXT NOT NULL,
                lang         TEXT NOT NULL CHECK (length(lang) BETWEEN 2 AND 8),
                context_only INTEGER NOT NULL DEFAULT 0 CHECK (context_only IN (0, 1)),
                exact        INTEGER NOT NULL CHECK (exact IN (0, 1))
            );
            CREATE INDEX names_short_key ON names (key) WHERE length(key) < 3;

            -- Trigram index over the normalized names. detail = none keeps only which rows
            -- hold each trigram, not where: queries ask for all of a string's trigrams
            -- and the caller checks the key itself (substring, equality, edit distance).
            -- Results are ranked in Swift, not by bm25, so the per-row sizes bm25 needs are not kept.
            CREATE VIRTUAL TABLE names_fts USING fts5 (
                key, content = 'names', content_rowid = 'id', tokenize = 'trigram', columnsize = 0, detail = none
            );
            """),
    ]

    /// The version a store must have for this program to read it.
    static var version: Int { migrations.last!.version }
}
