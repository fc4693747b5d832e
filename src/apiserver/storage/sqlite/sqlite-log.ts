import Database from 'better-sqlite3';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { prefixEnd, type Log, type LogRow, type LogState, type RowRef, type ScanPage } from '../log.js';
import type { StoreEvent, StoredValue } from '../types.js';
import * as sql from './dialect.js';

interface ValueRow {
  id: number;
  name: string;
  create_revision: number;
  value: string;
}

interface RefRow {
  id: number;
  name: string;
  create_revision: number;
}

interface LatestRow extends ValueRow {
  deleted: number;
}

interface ScanRow {
  id: number;
  name: string;
  create_revision: number;
  value: string | null;
}

interface HistoryRow extends ValueRow {
  created: number;
  deleted: number;
  prev: string | null;
}

/** kine's SQL log on SQLite: every write appends one row whose id is the revision. */
export class SqliteLog implements Log {
  private readonly db: SqliteDatabase;
  private readonly insert: Statement;
  private readonly historyAfter: Statement;
  private readonly listAtRevision: Statement;
  private readonly countAtRevision: Statement;
  private readonly valuesOf: Statement;
  private readonly listValuesAtRevision: Statement;
  private readonly latestRow: Statement;
  /** One scan statement per number of needles. */
  private readonly scans = new Map<number, Statement>();
  private readonly writeProbe: Statement;
  private readonly insertAll: (rows: LogRow[]) => void;
  private readonly compactAll: (revision: number) => void;

  constructor(file: string) {
    // A short busy timeout: a second server on the same file should fail fast, not hang.
    this.db = new Database(file, { timeout: 200 });
    for (const p of sql.PRAGMAS) this.db.pragma(p);
    this.db.exec(sql.SCHEMA);
    if (!this.db.prepare(sql.HAS_UNIQUE_GUARD).get()) this.db.exec(sql.ADD_UNIQUE_GUARD);
    this.insert = this.db.prepare(sql.INSERT);
    this.historyAfter = this.db.prepare(sql.HISTORY_AFTER);
    this.listAtRevision = this.db.prepare(sql.LIST_AT_REVISION);
    this.countAtRevision = this.db.prepare(sql.COUNT_AT_REVISION);
    this.valuesOf = this.db.prepare(sql.VALUES_OF);
    this.listValuesAtRevision = this.db.prepare(sql.LIST_VALUES_AT_REVISION);
    this.latestRow = this.db.prepare(sql.LATEST);
    this.writeProbe = this.db.prepare(sql.WRITE_PROBE);
    this.insertAll = this.db.transaction((rows: LogRow[]) => {
      for (const r of rows) {
        const flags = [r.created ? 1 : 0, r.deleted ? 1 : 0] as const;
        this.insert.run(r.revision, r.key, ...flags, r.createRevision, r.prevRevision, r.value);
      }
    });
    const superseded = this.db.prepare(sql.COMPACT_SUPERSEDED);
    const tombstones = this.db.prepare(sql.COMPACT_TOMBSTONES);
    const setCompacted = this.db.prepare(sql.SET_COMPACT_REVISION);
    this.compactAll = this.db.transaction((revision: number) => {
      superseded.run(revision);
      tombstones.run(revision);
      setCompacted.run(revision);
    });
  }

  load(): LogState {
    const seq = this.db.prepare(sql.LAST_REVISION).get() as { seq: number } | undefined;
    const compact = this.db.prepare(sql.COMPACT_REVISION).get() as { v: number } | undefined;
    return { revision: seq?.seq ?? 0, compacted: compact?.v ?? 0 };
  }

  latest(key: string): StoredValue | undefined {
    const row = this.latestRow.get(key) as LatestRow | undefined;
    return row && !row.deleted ? toStored(row) : undefined;
  }

  append(rows: LogRow[]): void {
    this.insertAll(rows);
  }

  after(prefix: string, revision: number): StoreEvent[] {
    return (this.historyAfter.all(revision, prefix, prefixEnd(prefix)) as HistoryRow[]).map(toEvent);
  }

  listAt(prefix: string, startAfter: string | undefined, revision: number, limit: number): RowRef[] {
    const end = prefixEnd(prefix);
    const rows = this.listAtRevision.all(startAfter ?? prefix, end, revision, Math.min(limit, 2 ** 31 - 1)) as RefRow[];
    return rows.map((r) => ({ key: r.name, modRevision: r.id, createRevision: r.create_revision || r.id }));
  }

  listValuesAt(prefix: string, startAfter: string | undefined, revision: number, limit: number): StoredValue[] {
    const end = prefixEnd(prefix);
    const rows = this.listValuesAtRevision.all(startAfter ?? prefix, end, revision, Math.min(limit, 2 ** 31 - 1));
    return (rows as ValueRow[]).map(toStored);
  }

  values(revisions: readonly number[]): Map<number, string> {
    const out = new Map<number, string>();
    if (!revisions.length) return out;
    const rows = this.valuesOf.all(JSON.stringify(revisions)) as Array<{ id: number; value: string }>;
    for (const r of rows) out.set(r.id, r.value);
    return out;
  }

  countAt(prefix: string, revision: number): number {
    return (this.countAtRevision.get(prefix, prefixEnd(prefix), revision) as { n: number }).n;
  }

  scan(prefix: string, startAfter: string | undefined, window: number, needles: readonly string[]): ScanPage {
    let stmt = this.scans.get(needles.length);
    if (!stmt) this.scans.set(needles.length, (stmt = this.db.prepare(sql.scanWindow(needles.length))));
    const rows = stmt.all(...needles, startAfter ?? prefix, prefixEnd(prefix), window) as ScanRow[];
    const items: StoredValue[] = [];
    for (const r of rows) if (r.value !== null) items.push(toStored({ ...r, value: r.value }));
    const last = rows[rows.length - 1];
    return { items, next: rows.length === window && last ? last.name : undefined };
  }

  compact(revision: number): void {
    this.compactAll(revision);
  }

  probe(): void {
    this.writeProbe.run(Date.now());
  }

  isFatal(err: Error): boolean {
    const code = (err as { code?: unknown }).code;
    return !this.db.open || (typeof code === 'string' && sql.FATAL_CODES.has(code));
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function toStored(r: ValueRow): StoredValue {
  return { key: r.name, value: r.value, modRevision: r.id, createRevision: r.create_revision || r.id };
}

function toEvent(r: HistoryRow): StoreEvent {
  const type = r.deleted ? 'delete' : r.created ? 'create' : 'update';
  return { type, key: r.name, revision: r.id, value: r.value, prevValue: r.prev ?? undefined };
}
