import { CurrentIndex } from './current-index.js';
import { CompactedError, StorageUnusableError } from './errors.js';
import type { Log, LogRow } from './log.js';
import { WatchHub } from './watch-hub.js';
import type {
  Backend,
  ListOptions,
  ListResult,
  StoreEvent,
  StoredValue,
  ValueAtRevision,
  WatchHandle,
  WriteResult,
} from './types.js';

interface Pending {
  row: LogRow;
  event: StoreEvent;
  /** What the write replaced in the index (undefined: the key was absent), to undo a failed commit. */
  before: StoredValue | undefined;
}

/**
 * kine's log-structured layer over a revision log: compare-and-swap against the current values,
 * watches, and the group commit. The current value of each key is kept in memory (the apiserver's
 * watch cache does the same), so reads and lists cost no SQL; history queries (watch replay, paged
 * or exact-revision lists) go to the log.
 */
export class LogStructured implements Backend {
  private readonly index = new CurrentIndex();
  private readonly hub = new WatchHub();
  private revision = 0;
  private committed = 0;
  private compacted = 0;
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  /** Why the last commit failed, until a commit (or a probe) succeeds: writes cannot be stored. */
  private writeError: Error | undefined;
  /** Why storage cannot be used again (the file is corrupt or closed): only a restart may help. */
  private fatal: Error | undefined;
  private readonly rollbackListeners: Array<(undone: StoreEvent[]) => void> = [];

  constructor(private readonly log: Log) {
    const state = log.load();
    this.revision = state.revision;
    this.committed = state.revision;
    this.compacted = state.compacted;
    for (const v of state.current) this.index.set(v);
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

  list(prefix: string, opts: ListOptions = {}): ListResult {
    const revision = opts.revision ?? this.revision;
    if (revision < this.compacted) throw new CompactedError(revision, this.compacted);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Number.MAX_SAFE_INTEGER;
    if (revision === this.revision) {
      const { items, more } = this.index.range(prefix, opts.startAfter, limit);
      return { items, revision, more };
    }
    // A past revision (a continued list, or resourceVersionMatch=Exact) is answered from the log.
    if (revision > this.committed) this.flush();
    const rows = this.log.listAt(prefix, opts.startAfter, revision, limit + 1);
    return { items: rows.slice(0, limit), revision, more: rows.length > limit };
  }

  create(key: string, value: ValueAtRevision): WriteResult {
    const current = this.index.get(key);
    if (current) return { outcome: 'exists', current };
    const rev = this.revision + 1;
    const stored = { key, value: value(rev), modRevision: rev, createRevision: rev };
    return this.append('create', stored, this.revision, undefined);
  }

  update(key: string, expectedRevision: number, value: ValueAtRevision): WriteResult {
    const current = this.index.get(key);
    if (!current) return { outcome: 'not-found' };
    if (current.modRevision !== expectedRevision) return { outcome: 'conflict', current };
    const rev = this.revision + 1;
    const stored = { key, value: value(rev), modRevision: rev, createRevision: current.createRevision };
    return this.append('update', stored, current.modRevision, current);
  }

  delete(key: string, expectedRevision: number, value: ValueAtRevision): WriteResult {
    const current = this.index.get(key);
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
    this.pending.push({ row, event, before });
    this.revision = stored.modRevision;
    if (type === 'delete') this.index.delete(stored.key);
    else this.index.set(stored);
    this.scheduleFlush();
    return { outcome: 'written', stored };
  }

  /**
   * Group commit: every write made in one turn of the event loop goes to the log in one transaction
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
    const batch = this.pending;
    const last = batch[batch.length - 1];
    if (!last) return;
    this.pending = [];
    try {
      this.log.append(batch.map((p) => p.row));
    } catch (e) {
      this.rollBack(batch, e as Error);
      throw e;
    }
    this.committed = last.row.revision;
    this.writeError = undefined;
    for (const p of batch) this.hub.publish(p.event);
  }

  /**
   * A commit that failed (the disk full, an I/O error) took none of its rows: the log rolled the
   * transaction back, and the writes it held are undone in memory too, newest first, so reads
   * serve what is stored and the next write takes the next revision after the last committed one.
   * Their callers are answered with the error; no watcher was told of them.
   */
  private rollBack(batch: Pending[], err: Error): void {
    for (let i = batch.length - 1; i >= 0; i--) {
      const p = batch[i];
      if (!p) continue;
      if (p.before) this.index.set(p.before);
      else this.index.delete(p.row.key);
    }
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
    return this.flushing ?? Promise.resolve();
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
