// Every SQL text the SQLite log runs, in one place (kine's generic driver keeps its dialect so).

/** Connection settings, in the order they must be applied. */
export const PRAGMAS = [
  // EXCLUSIVE keeps a second server off the same file: its cache would silently diverge.
  'locking_mode = EXCLUSIVE',
  'journal_mode = WAL',
  // NORMAL in WAL mode: a committed write survives a killed process (not a power cut) and is
  // several times faster than FULL (SQLite's own documentation of synchronous; kine uses it too).
  'synchronous = NORMAL',
] as const;

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS kine (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    create_revision INTEGER NOT NULL,
    prev_revision INTEGER NOT NULL,
    value TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS kine_name_id ON kine (name, id);
  CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL);`;

export const HAS_UNIQUE_GUARD =
  "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'kine_name_prev_revision_uindex'";

/**
 * The concurrency guard, as kine's: no two rows of a key replace the same revision. Files written
 * before it stored every create with prev_revision 0 (a key created twice would violate it): their
 * creates get the revision they were decided at, which is what a create stores now.
 */
export const ADD_UNIQUE_GUARD = `
  UPDATE kine SET prev_revision = id - 1 WHERE created = 1 AND prev_revision = 0 AND id > 1;
  CREATE UNIQUE INDEX IF NOT EXISTS kine_name_prev_revision_uindex ON kine (name, prev_revision);`;

export const INSERT =
  'INSERT INTO kine (id, name, created, deleted, create_revision, prev_revision, value) VALUES (?, ?, ?, ?, ?, ?, ?)';

/** A create's prev_revision names no row of its key, so only updates and deletes join their previous row. */
export const HISTORY_AFTER = `
  SELECT k.id, k.name, k.created, k.deleted, k.create_revision, k.value, p.value AS prev
  FROM kine k LEFT JOIN kine p ON k.created = 0 AND p.id = k.prev_revision
  WHERE k.id > ? AND k.name >= ? AND k.name < ? ORDER BY k.id`;

export const LIST_AT_REVISION = `
  SELECT k.id, k.name, k.create_revision, k.value
  FROM kine k JOIN (
    SELECT name, MAX(id) AS id FROM kine WHERE id <= ? AND name > ? AND name < ? GROUP BY name
  ) m ON k.id = m.id
  WHERE k.deleted = 0 ORDER BY k.name LIMIT ?`;

export const CURRENT_VALUES = `
  SELECT k.id, k.name, k.create_revision, k.value FROM kine k
  JOIN (SELECT name, MAX(id) AS id FROM kine GROUP BY name) m ON k.id = m.id WHERE k.deleted = 0`;

/** The last revision handed out, even when compaction removed its row (a tombstone). */
export const LAST_REVISION = "SELECT seq FROM sqlite_sequence WHERE name = 'kine'";

export const COMPACT_REVISION = "SELECT v FROM meta WHERE k = 'compact_rev'";

/** Rows superseded at or before the target (a create's prev_revision is no row of its key). */
export const COMPACT_SUPERSEDED =
  'DELETE FROM kine WHERE id IN (SELECT prev_revision FROM kine WHERE id <= ? AND created = 0 AND prev_revision > 0)';

export const COMPACT_TOMBSTONES = 'DELETE FROM kine WHERE deleted = 1 AND id <= ?';

export const SET_COMPACT_REVISION =
  "INSERT INTO meta (k, v) VALUES ('compact_rev', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v";

export const WRITE_PROBE =
  "INSERT INTO meta (k, v) VALUES ('write_probe', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v";

/** SQLite codes after which the file cannot be trusted again by this process. */
export const FATAL_CODES: ReadonlySet<string> = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_MISUSE']);
