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

/**
 * The values under a prefix at a revision, by key: each row of the range that is its key's last at
 * that revision. The correlated MAX walks the (name, id) index, so the scan streams in key order and
 * a LIMIT stops it: a page costs its own rows, not the whole range. Values are not read here: the
 * caller takes the ones its cache holds at the same revision and asks VALUES_OF for the rest.
 */
export const LIST_AT_REVISION = `
  SELECT k.id, k.name, k.create_revision FROM kine k
  WHERE k.name > ? AND k.name < ? AND k.deleted = 0
    AND k.id = (SELECT MAX(l.id) FROM kine l WHERE l.name = k.name AND l.id <= ?)
  ORDER BY k.name LIMIT ?`;

/** LIST_AT_REVISION with the values: for a list the cache cannot hold, one statement instead of two. */
export const LIST_VALUES_AT_REVISION = `
  SELECT k.id, k.name, k.create_revision, k.value FROM kine k
  WHERE k.name > ? AND k.name < ? AND k.deleted = 0
    AND k.id = (SELECT MAX(l.id) FROM kine l WHERE l.name = k.name AND l.id <= ?)
  ORDER BY k.name LIMIT ?`;

/** The texts of the rows with these ids (a JSON array), in one statement however many there are. */
export const VALUES_OF = 'SELECT id, value FROM kine WHERE id IN (SELECT value FROM json_each(?))';

/** How many keys under a prefix hold a value at a revision (for remainingItemCount). */
export const COUNT_AT_REVISION = `
  SELECT COUNT(*) AS n FROM kine k
  WHERE k.name > ? AND k.name < ? AND k.deleted = 0
    AND k.id = (SELECT MAX(l.id) FROM kine l WHERE l.name = k.name AND l.id <= ?)`;

/** A key's last row: its current value unless that row is a delete. */
export const LATEST =
  'SELECT id, name, create_revision, value, deleted FROM kine WHERE name = ? ORDER BY id DESC LIMIT 1';

/**
 * A window of keys after a key (counted in keys, so a window always moves on), each with its last
 * row and, for the current values whose text holds one of the needles, that text: `instr` runs in
 * SQLite, so a value that cannot match never becomes a JavaScript string. `needles` is how many
 * `instr` terms there are.
 */
export function scanWindow(needles: number): string {
  const match = needles ? Array.from({ length: needles }, () => 'instr(k.value, ?) > 0').join(' OR ') : '1';
  return `
  SELECT k.id, k.name, k.create_revision, CASE WHEN k.deleted = 0 AND (${match}) THEN k.value END AS value
  FROM (SELECT name, MAX(id) AS id FROM kine WHERE name > ? AND name < ? GROUP BY name ORDER BY name LIMIT ?) w
  JOIN kine k ON k.id = w.id ORDER BY k.name`;
}

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
