import { CompactedError, StorageUnusableError } from './errors.js';
import { prefixEnd, type Log, type LogRow, type RowRef } from './log.js';
import { DEFAULT_CACHE_LIMITS, ValueCache, type CacheLimits } from './value-cache.js';
import { WatchHub } from './watch-hub.js';
import type {
  Backend,
  ListOptions,
  ListResult,
  ScanOptions,
  ScanResult,
  StoreEvent,
  StoredValue,
  ValueAtRevision,
  WatchHandle,
  WriteResult,
} from './types.js';

/** How many prefixes' counts are kept (each a few numbers) before they are all dropped. */
const COUNTS_KEPT = 64;

interface Pending {
  row: LogRow;
  event: StoreEvent;
}

/** The promise `sync()` hands out for the writes not yet committed, settled by the commit that takes them. */
interface Waiter {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: Error) => void;
}

/**
 * kine's log-structured layer over a revision log: compare-and-swap against the current values,
 * watches, and the group commit. The log is the store: a get, a list and a watch's history are
 * answered from it; memory holds the writes of this turn (until their commit) and a bounded cache
 * of recently used values, so neither memory nor start time grows with the number of objects.
 */
export class LogStructured implements Backend {
  private readonly hub = new WatchHub();
  private readonly cache: ValueCache;
  /** Writes applied but not committed yet, by key (null: deleted): reads see them before the log does. */
  private readonly unflushed = new Map<string, StoredValue | null>();
  private revision = 0;
  private committed = 0;
  private compacted = 0;
  private pending: Pending[] = [];
  private waiter: Waiter | undefined;
  /** Why the last commit failed, until a commit (or a probe) succeeds: writes cannot be stored. */
  private writeError: Error | undefined;
  /** Why storage cannot be used again (the file is corrupt or closed): only a restart may help. */
  private fatal: Error | undefined;
  private readonly rollbackListeners: Array<(undone: StoreEvent[]) => void> = [];
  /** By prefix, the share of its last list's rows the cache held. */
  private readonly listHits = new Map<string, number>();
  /** Counts by prefix, each at the committed revision it was counted at. */
  private readonly counts = new Map<string, { revision: number; n: number }>();

  constructor(
    private readonly log: Log,
    cache: Partial<CacheLimits> = {},
  ) {
    const state = log.load();
    this.revision = state.revision;
    this.committed = state.revision;
    this.compacted = state.compacted;
    this.cache = new ValueCache({ ...DEFAULT_CACHE_LIMITS, ...cache });
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

  /** How many values the cache holds and their size, for the figures a bench prints. */
  cacheUse(): { objects: number; bytes: number } {
    return { objects: this.cache.size, bytes: this.cache.bytes };
  }

  get(key: string): StoredValue | undefined {
    const mine = this.unflushed.get(key);
    if (mine !== undefined) return mine ?? undefined;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const stored = this.log.latest(key);
    if (stored) this.cache.set(stored);
    return stored;
  }

  count(prefix: string): number {
    let n = this.committedCount(prefix);
    for (const [key, v] of this.unflushedIn(prefix, prefixEnd(prefix))) {
      n += (v ? 1 : 0) - (this.log.latest(key) ? 1 : 0);
    }
    return n;
  }

  /**
   * The log's count at the committed revision, kept while that revision stands: a client paging
   * through a large collection (remainingItemCount on every page) pays for one count, not one per page.
   */
  private committedCount(prefix: string): number {
    const known = this.counts.get(prefix);
    if (known?.revision === this.committed) return known.n;
    const n = this.log.countAt(prefix, this.committed);
    if (this.counts.size >= COUNTS_KEPT) this.counts.clear();
    this.counts.set(prefix, { revision: this.committed, n });
    return n;
  }

  list(prefix: string, opts: ListOptions = {}): ListResult {
    const revision = opts.revision ?? this.revision;
    if (revision < this.compacted) throw new CompactedError(revision, this.compacted);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Number.MAX_SAFE_INTEGER;
    // A past revision the log has not got yet (a continue token issued before its commit) waits
    // for nothing: this turn's writes are committed now.
    if (revision !== this.revision && revision > this.committed) this.commitPending();
    // The current revision is the log's plus this turn's writes laid over it; a page asks the log
    // for one more row per such write, as each may remove one of its rows.
    const after = opts.startAfter !== undefined && opts.startAfter > prefix ? opts.startAfter : prefix;
    const mine = revision === this.revision ? this.unflushedIn(after, prefixEnd(prefix)) : [];
    const at = Math.min(revision, this.committed);
    const want = limit + 1 + mine.length;
    const rows = this.mostlyCached(prefix)
      ? this.valuesAt(prefix, this.log.listAt(prefix, after, at, want), at === this.committed)
      : this.shareCached(prefix, this.log.listValuesAt(prefix, after, at, want));
    const items = mine.length ? overlay(rows, mine, () => true) : rows;
    return { items: items.slice(0, limit), revision, more: items.length > limit };
  }

  /**
   * Whether the last list of `prefix` found most of its rows in the cache: then the next one reads
   * the rows first and only the values the cache lacks; else rows and values in one statement.
   */
  private mostlyCached(prefix: string): boolean {
    return (this.listHits.get(prefix) ?? 1) >= 0.5;
  }

  private noteHits(prefix: string, hits: number, rows: number): void {
    if (this.listHits.size >= COUNTS_KEPT) this.listHits.clear();
    this.listHits.set(prefix, rows ? hits / rows : 1);
  }

  /**
   * The texts of listed rows: the cache's where it holds the same revision (one string shared by
   * every list and watch that holds it), the rest read in one statement. `current`: the rows are
   * their keys' committed values, so the cache takes the ones it lacked, unless the list is more
   * than half the cache (a list of everything would only push the hot set out, and a list as large
   * as the cache, read in key order, would evict each row before its next read).
   */
  private valuesAt(prefix: string, refs: RowRef[], current: boolean): StoredValue[] {
    const out: StoredValue[] = new Array<StoredValue>(refs.length);
    const missing: number[] = [];
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i] as RowRef;
      const cached = this.cache.get(ref.key);
      if (cached?.modRevision === ref.modRevision) out[i] = cached;
      else missing.push(i);
    }
    this.noteHits(prefix, refs.length - missing.length, refs.length);
    if (!missing.length) return out;
    const texts = this.log.values(missing.map((i) => (refs[i] as RowRef).modRevision));
    const found: StoredValue[] = [];
    for (const i of missing) {
      const ref = refs[i] as RowRef;
      const value = texts.get(ref.modRevision);
      // A row compacted between the two statements cannot be: both run in this turn, as compaction does.
      if (value === undefined) {
        throw new Error(`storage invariant: row ${ref.modRevision} of ${ref.key} vanished between two reads`);
      }
      const v = { key: ref.key, value, modRevision: ref.modRevision, createRevision: ref.createRevision };
      out[i] = v;
      found.push(v);
    }
    if (current && refs.length <= this.cache.capacity / 2) for (const v of found) this.cache.set(v);
    return out;
  }

  /** Rows read with their values: the cache's value stands in where it holds the same revision (shared, not a copy). */
  private shareCached(prefix: string, rows: StoredValue[]): StoredValue[] {
    let hits = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as StoredValue;
      const cached = this.cache.get(row.key);
      if (cached?.modRevision === row.modRevision) {
        rows[i] = cached;
        hits++;
      }
    }
    this.noteHits(prefix, hits, rows.length);
    return rows;
  }

  scan(prefix: string, opts: ScanOptions): ScanResult {
    const after = opts.startAfter !== undefined && opts.startAfter > prefix ? opts.startAfter : prefix;
    const page = this.log.scan(prefix, after, opts.window, opts.containing);
    // The window is (startAfter, next]: the smallest string after `next` bounds this turn's writes in it.
    const end = page.next === undefined ? prefixEnd(prefix) : `${page.next}\u0000`;
    const mine = this.unflushedIn(after, end);
    if (!mine.length) return page;
    const needles = opts.containing;
    const holds = (v: StoredValue): boolean => !needles.length || needles.some((n) => v.value.includes(n));
    return { items: overlay(page.items, mine, holds), next: page.next };
  }

  /** This turn's writes to keys after `after` and before `before`. */
  private unflushedIn(after: string, before: string): Array<[string, StoredValue | null]> {
    const out: Array<[string, StoredValue | null]> = [];
    for (const entry of this.unflushed) if (entry[0] > after && entry[0] < before) out.push(entry);
    return out;
  }

  create(key: string, value: ValueAtRevision): WriteResult {
    const current = this.get(key);
    if (current) return { outcome: 'exists', current };
    const rev = this.revision + 1;
    const stored = { key, value: value(rev), modRevision: rev, createRevision: rev };
    return this.append('create', stored, this.revision, undefined);
  }

  update(key: string, expectedRevision: number, value: ValueAtRevision): WriteResult {
    const current = this.get(key);
    if (!current) return { outcome: 'not-found' };
    if (current.modRevision !== expectedRevision) return { outcome: 'conflict', current };
    const rev = this.revision + 1;
    const stored = { key, value: value(rev), modRevision: rev, createRevision: current.createRevision };
    return this.append('update', stored, current.modRevision, current);
  }

  delete(key: string, expectedRevision: number, value: ValueAtRevision): WriteResult {
    const current = this.get(key);
    if (!current) return { outcome: 'not-found' };
    if (expectedRevision !== 0 && current.modRevision !== expectedRevision) return { outcome: 'conflict', current };
    const rev = this.revision + 1;
    const stored = { key, value: value(rev), modRevision: rev, createRevision: current.createRevision };
    return this.append('delete', stored, current.modRevision, current);
  }

  /** Applies a write to the in-memory state at once; its row and watch event wait for the group commit. */
  private append(
    type: StoreEvent['type'],
    stored: StoredValue,
    prevRevision: number,
    before: StoredValue | undefined,
  ): WriteResult {
    if (this.fatal) throw new StorageUnusableError(this.fatal);
    const row: LogRow = {
      revision: stored.modRevision,
      key: stored.key,
      created: type === 'create',
      deleted: type === 'delete',
      createRevision: stored.createRevision,
      prevRevision,
      value: stored.value,
    };
    const { key, modRevision: revision, value } = stored;
    const event: StoreEvent = { type, key, revision, value, prevValue: before?.value };
    this.pending.push({ row, event });
    this.revision = stored.modRevision;
    this.unflushed.set(key, type === 'delete' ? null : stored);
    this.scheduleFlush();
    return { outcome: 'written', stored };
  }

  /**
   * Group commit: every write made in one turn of the event loop goes to the log in one transaction
   * (one WAL append instead of one per row), and only then are watchers told. Callers acknowledge a
   * write to their client after `sync()`, so nothing unacknowledged is ever reported as written.
   */
  private scheduleFlush(): void {
    if (this.waiter) return;
    let resolve: () => void = () => undefined;
    let reject: (e: Error) => void = () => undefined;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined);
    this.waiter = { promise, resolve, reject };
    setImmediate(() => this.commitPending());
  }

  /** Commits this turn's writes now (a read needs them in the log); a failure is their callers' answer. */
  private commitPending(): void {
    try {
      this.flush();
    } catch {
      // Undone in memory and rejected to the writers' sync(); what is stored is what reads answer.
    }
  }

  private flush(): void {
    const batch = this.pending;
    const waiter = this.waiter;
    this.waiter = undefined;
    const last = batch[batch.length - 1];
    if (!last) {
      waiter?.resolve();
      return;
    }
    this.pending = [];
    try {
      this.log.append(batch.map((p) => p.row));
    } catch (e) {
      this.unflushed.clear();
      this.rollBack(batch, e as Error);
      waiter?.reject(e as Error);
      throw e;
    }
    this.committed = last.row.revision;
    this.writeError = undefined;
    for (const { row } of batch) {
      if (row.deleted) this.cache.delete(row.key);
      else {
        const { key, value, revision: modRevision, createRevision } = row;
        this.cache.set({ key, value, modRevision, createRevision });
      }
    }
    this.unflushed.clear();
    waiter?.resolve();
    for (const p of batch) this.hub.publish(p.event);
  }

  /**
   * A commit that failed (the disk full, an I/O error) took none of its rows: the log rolled the
   * transaction back, and the writes it held are forgotten in memory too (the cache only ever
   * holds committed values), so reads serve what is stored and the next write takes the next
   * revision after the last committed one. Their callers are answered with the error; no watcher
   * was told of them.
   */
  private rollBack(batch: Pending[], err: Error): void {
    this.revision = this.committed;
    this.writeError = err;
    if (this.log.isFatal(err)) this.fatal = err;
    const undone = batch.map((p) => p.event).reverse();
    for (const l of this.rollbackListeners) l(undone);
  }

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
      this.log.probe();
      this.writeError = undefined;
    } catch (e) {
      this.writeError = e as Error;
      if (this.log.isFatal(e as Error)) this.fatal = e as Error;
    }
    return this.writeError;
  }

  liveness(): Error | undefined {
    return this.fatal ?? (this.log.isOpen ? undefined : new Error('the database is closed'));
  }

  /** Resolves once every write made so far is committed; rejects for the writes a failed commit undid. */
  sync(): Promise<void> {
    return this.waiter?.promise ?? Promise.resolve();
  }

  watch(prefix: string, fromRevision: number, onEvent: (e: StoreEvent) => void, onClosed?: () => void): WatchHandle {
    if (fromRevision < this.compacted) throw new CompactedError(fromRevision, this.compacted);
    // The log is synchronous, so replaying history and subscribing happen in one turn of the event
    // loop: no write can fall between them. The history holds committed writes only; the pending
    // ones arrive through the hub once committed, and nothing at or before the start revision is sent.
    if (fromRevision < this.revision) for (const e of this.log.after(prefix, fromRevision)) onEvent(e);
    return this.hub.subscribe(prefix, (e) => e.revision > fromRevision && onEvent(e), onClosed);
  }

  compact(revision: number): void {
    this.flush();
    const target = Math.min(revision, this.revision);
    if (target <= this.compacted) return;
    this.log.compact(target);
    this.compacted = target;
  }

  endWatches(): void {
    this.hub.closeAll();
  }

  close(): void {
    if (this.log.isOpen && !this.fatal) {
      try {
        this.flush();
      } catch {
        // Undone and answered to their callers as failed; nothing acknowledged is lost.
      }
    }
    this.hub.closeAll();
    this.log.close();
  }
}

/** Committed rows with this turn's writes laid over them (a null is a delete), in key order. */
function overlay(
  rows: StoredValue[],
  mine: Array<[string, StoredValue | null]>,
  keep: (v: StoredValue) => boolean,
): StoredValue[] {
  const changed = new Set(mine.map(([key]) => key));
  const out = rows.filter((r) => !changed.has(r.key));
  for (const [, v] of mine) if (v && keep(v)) out.push(v);
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
