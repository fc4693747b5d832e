import Database from 'better-sqlite3';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { CurrentIndex } from './current-index.js';
import { WatchHub } from './watch-hub.js';
import {
  CompactedError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionConflictError,
  type ListResult,
  type Store,
  type StoreEvent,
  type StoredValue,
  type ValueAtRevision,
  type WatchHandle,
} from './types.js';

type RowArgs = [id: number, name: string, created: number, deleted: number, createRevision: number, prevRevision: number, value: string];

interface Row {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: string;
  prev: string | null;
}

/**
 * kine's SQL log on SQLite: every write appends one row whose id is the revision. The current value
 * of each key is also kept in memory (the apiserver's watch cache does the same), so reads and lists
 * cost no SQL; history queries (watch replay, paged or exact-revision lists) go to the table.
 */
export class SqliteLogStore implements Store {
  private readonly db: SqliteDatabase;
  private readonly index = new CurrentIndex();
  private readonly hub = new WatchHub();
  private revision = 0;
  private committed = 0;
  private pendingRows: RowArgs[] = [];
  private pendingEvents: StoreEvent[] = [];
  /** What each pending write replaced in the index (undefined: the key was absent), to undo a failed commit. */
  private pendingUndo: Array<{ key: string; before: StoredValue | undefined }> = [];
  private flushing: Promise<void> | undefined;
  /** Why the last commit failed, until a commit (or a probe) succeeds: writes cannot be stored. */
  private writeError: Error | undefined;
  /** Why storage cannot be used again (the file is corrupt or closed): only a restart may help. */
  private fatal: Error | undefined;
  private readonly rollbackListeners: Array<(undone: StoreEvent[]) => void> = [];
  private readonly probe: Statement;
  private readonly insertAll: (rows: RowArgs[]) => void;
  private compacted = 0;
  private readonly insert: Statement;
  private readonly historyAfter: Statement;
  private readonly listAtRevision: Statement;
  private readonly setMeta: Statement;

  constructor(file: string) {
    // A short busy timeout: a second server on the same file should fail fast, not hang.
    this.db = new Database(file, { timeout: 200 });
    // EXCLUSIVE keeps a second server off the same file: its cache would silently diverge.
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a committed write survives a killed process (not a power cut) and is
    // several times faster than FULL (SQLite's own documentation of synchronous; kine uses it too).
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
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
      CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL);
    `);
    this.insert = this.db.prepare(
      'INSERT INTO kine (id, name, created, deleted, create_revision, prev_revision, value) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.historyAfter = this.db.prepare(`
      SELECT k.id, k.name, k.created, k.deleted, k.create_revision, k.prev_revision, k.value, p.value AS prev
      FROM kine k LEFT JOIN kine p ON p.id = k.prev_revision
      WHERE k.id > ? AND k.name >= ? AND k.name < ? ORDER BY k.id`);
    this.listAtRevision = this.db.prepare(`
      SELECT k.id, k.name, k.created, k.deleted, k.create_revision, k.prev_revision, k.value, NULL AS prev
      FROM kine k JOIN (
        SELECT name, MAX(id) AS id FROM kine WHERE id <= ? AND name > ? AND name < ? GROUP BY name
      ) m ON k.id = m.id
      WHERE k.deleted = 0 ORDER BY k.name LIMIT ?`);
    this.insertAll = this.db.transaction((rows: RowArgs[]) => {
      for (const r of rows) this.insert.run(...r);
    });
    this.setMeta = this.db.prepare('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v');
    this.probe = this.db.prepare(
      "INSERT INTO meta (k, v) VALUES ('write_probe', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v",
    );
    this.load();
  }

  private load(): void {
    const seq = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'kine'").get() as { seq: number } | undefined;
    this.revision = seq?.seq ?? 0;
    this.committed = this.revision;
    const compact = this.db.prepare("SELECT v FROM meta WHERE k = 'compact_rev'").get() as { v: number } | undefined;
    this.compacted = compact?.v ?? 0;
    const rows = this.db
      .prepare(
        `SELECT k.id, k.name, k.create_revision, k.value FROM kine k
         JOIN (SELECT name, MAX(id) AS id FROM kine GROUP BY name) m ON k.id = m.id WHERE k.deleted = 0`,
      )
      .all() as Array<Pick<Row, 'id' | 'name' | 'create_revision' | 'value'>>;
    for (const r of rows) {
      this.index.set({ key: r.name, value: r.value, modRevision: r.id, createRevision: r.create_revision || r.id });
    }
  }

  currentRevision(): number {
    return this.revision;
  }

  committedRevision(): number {
    return this.committed;
  }

  compactRevision(): number {
    return this.compacted;
  }

  get(key: string): StoredValue | undefined {
    return this.index.get(key);
  }

  count(prefix: string): number {
    return this.index.count(prefix);
  }

  list(prefix: string, opts: { startAfter?: string; limit?: number; revision?: number } = {}): ListResult {
    const revision = opts.revision ?? this.revision;
    if (revision < this.compacted) throw new CompactedError(revision, this.compacted);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Number.MAX_SAFE_INTEGER;
    if (revision === this.revision) {
      const { items, more } = this.index.range(prefix, opts.startAfter, limit);
      return { items, revision, more };
    }
    // A past revision (a continued list, or resourceVersionMatch=Exact) is answered from the log.
    if (revision > this.committed) this.flush();
    const rows = this.listAtRevision.all(revision, opts.startAfter ?? prefix, prefixEnd(prefix), Math.min(limit + 1, 2 ** 31 - 1)) as Row[];
    const items = rows.slice(0, limit).map(toStored);
    return { items, revision, more: rows.length > limit };
  }

  create(key: string, value: ValueAtRevision): StoredValue {
    if (this.index.get(key)) throw new KeyExistsError(key);
    const rev = this.revision + 1;
    const text = value(rev);
    this.append([rev, key, 1, 0, rev, 0, text]);
    return this.commit('create', { key, value: text, modRevision: rev, createRevision: rev }, undefined);
  }

  update(key: string, expectedRevision: number, value: ValueAtRevision): StoredValue {
    const current = this.index.get(key);
    if (!current) throw new KeyNotFoundError(key);
    if (current.modRevision !== expectedRevision) throw new RevisionConflictError(key, current);
    const rev = this.revision + 1;
    const text = value(rev);
    this.append([rev, key, 0, 0, current.createRevision, current.modRevision, text]);
    return this.commit('update', { key, value: text, modRevision: rev, createRevision: current.createRevision }, current.value);
  }

  delete(key: string, expectedRevision: number, value: ValueAtRevision): StoredValue {
    const current = this.index.get(key);
    if (!current) throw new KeyNotFoundError(key);
    if (expectedRevision !== 0 && current.modRevision !== expectedRevision) throw new RevisionConflictError(key, current);
    const rev = this.revision + 1;
    const text = value(rev);
    this.append([rev, key, 0, 1, current.createRevision, current.modRevision, text]);
    return this.commit('delete', { key, value: text, modRevision: rev, createRevision: current.createRevision }, current.value);
  }

  private append(row: RowArgs): void {
    if (this.fatal) throw new StorageUnusableError(this.fatal);
    this.pendingRows.push(row);
  }

  /** Applies a write to the in-memory state at once; its row and watch event wait for the group commit. */
  private commit(type: StoreEvent['type'], stored: StoredValue, prevValue: string | undefined): StoredValue {
    this.pendingUndo.push({ key: stored.key, before: this.index.get(stored.key) });
    this.revision = stored.modRevision;
    if (type === 'delete') this.index.delete(stored.key);
    else this.index.set(stored);
    this.pendingEvents.push({ type, key: stored.key, revision: stored.modRevision, value: stored.value, prevValue });
    this.scheduleFlush();
    return stored;
  }

  /**
   * Group commit: every write made in one turn of the event loop goes to SQLite in one transaction
   * (one WAL append instead of one per row), and only then are watchers told. Callers acknowledge a
   * write to their client after `sync()`, so nothing unacknowledged is ever reported as written.
   */
  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.flushing = undefined;
        try {
          this.flush();
          resolve();
        } catch (e) {
          reject(e);
        }
      });
    });
    this.flushing.catch(() => undefined);
  }

  private flush(): void {
    if (!this.pendingRows.length) return;
    const rows = this.pendingRows;
    const events = this.pendingEvents;
    const undo = this.pendingUndo;
    this.pendingRows = [];
    this.pendingEvents = [];
    this.pendingUndo = [];
    try {
      this.insertAll(rows);
    } catch (e) {
      this.rollBack(undo, events, e as Error);
      throw e;
    }
    this.committed = rows[rows.length - 1]![0];
    this.writeError = undefined;
    for (const e of events) this.hub.publish(e);
  }

  /**
   * A commit that failed (the disk full, an I/O error) took none of its rows: SQLite rolled the
   * transaction back, and the writes it held are undone in memory too, newest first, so reads
   * serve what is stored and the next write takes the next revision after the last committed one.
   * Their callers are answered with the error; no watcher was told of them.
   */
  private rollBack(undo: Array<{ key: string; before: StoredValue | undefined }>, events: StoreEvent[], err: Error) {
    for (let i = undo.length - 1; i >= 0; i--) {
      const { key, before } = undo[i]!;
      if (before) this.index.set(before);
      else this.index.delete(key);
    }
    this.revision = this.committed;
    this.writeError = err;
    if (!this.db.open || isCorruption(err)) this.fatal = err;
    const undone = [...events].reverse();
    for (const l of this.rollbackListeners) l(undone);
  }

  /** Told of the writes a failed commit undid (newest first), to undo what was derived from them. */
  onRollback(listener: (undone: StoreEvent[]) => void): void {
    this.rollbackListeners.push(listener);
  }

  /**
   * Whether writes can be stored: undefined when they can, else why not. After a failed commit,
   * each call tries a one-row write (what kube-apiserver's etcd check does with a read), so the
   * answer turns healthy once there is room again without waiting for a client's write.
   */
  writeHealth(): Error | undefined {
    if (this.fatal) return this.fatal;
    if (!this.writeError) return undefined;
    try {
      this.probe.run(Date.now());
      this.writeError = undefined;
    } catch (e) {
      this.writeError = e as Error;
      if (isCorruption(e as Error)) this.fatal = e as Error;
    }
    return this.writeError;
  }

  /** Why the process cannot recover without a restart (the database is corrupt or closed), else undefined. */
  liveness(): Error | undefined {
    return this.fatal ?? (this.db.open ? undefined : new Error('the database is closed'));
  }

  /** Resolves once every write made so far is committed; rejects for the writes a failed commit undid. */
  sync(): Promise<void> {
    return this.flushing ?? Promise.resolve();
  }

  watch(prefix: string, fromRevision: number, onEvent: (e: StoreEvent) => void, onClosed?: () => void): WatchHandle {
    if (fromRevision < this.compacted) throw new CompactedError(fromRevision, this.compacted);
    // better-sqlite3 is synchronous, so replaying history and subscribing happen in one turn of the
    // event loop: no write can fall between them.
    if (fromRevision < this.revision) {
      const rows = this.historyAfter.all(fromRevision, prefix, prefixEnd(prefix)) as Row[];
      for (const r of rows) onEvent(rowToEvent(r));
    }
    // Writes still waiting for the group commit are already in the history answer's revision
    // range only if committed; the rest arrive through the hub, and nothing at or before the
    // start revision is sent twice.
    return this.hub.subscribe(prefix, (e) => e.revision > fromRevision && onEvent(e), onClosed);
  }

  compact(revision: number): void {
    this.flush();
    const target = Math.min(revision, this.revision);
    if (target <= this.compacted) return;
    this.db.transaction(() => {
      // Rows superseded at or before the target, then tombstones at or before it.
      this.db.prepare('DELETE FROM kine WHERE id IN (SELECT prev_revision FROM kine WHERE id <= ? AND prev_revision > 0)').run(target);
      this.db.prepare('DELETE FROM kine WHERE deleted = 1 AND id <= ?').run(target);
      this.setMeta.run('compact_rev', target);
    })();
    this.compacted = target;
  }

  endWatches(): void {
    this.hub.closeAll();
  }

  close(): void {
    if (this.db.open && !this.fatal) {
      try {
        this.flush();
      } catch {
        // Undone and answered to their callers as failed; nothing acknowledged is lost.
      }
    }
    this.hub.closeAll();
    if (this.db.open) this.db.close();
  }
}

/** SQLite codes after which the file cannot be trusted again by this process. */
const FATAL_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_MISUSE']);

function isCorruption(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && FATAL_CODES.has(code);
}

/** A write refused because the database cannot be used again (corrupt or closed); a restart is needed. */
export class StorageUnusableError extends Error {
  constructor(why: Error) {
    super(`storage cannot be used again (restart the server): ${why.message}`, { cause: why });
  }
}

function toStored(r: Row): StoredValue {
  return { key: r.name, value: r.value, modRevision: r.id, createRevision: r.create_revision || r.id };
}

function rowToEvent(r: Row): StoreEvent {
  const type = r.deleted ? 'delete' : r.created ? 'create' : 'update';
  return { type, key: r.name, revision: r.id, value: r.value, prevValue: r.prev ?? undefined };
}

/** The smallest string greater than every string that starts with `prefix`. */
export function prefixEnd(prefix: string): string {
  return prefix + '\uffff';
}
