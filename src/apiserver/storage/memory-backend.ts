import { CompactedError, StorageUnusableError } from './errors.js';
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

interface Entry {
  event: StoreEvent;
  createRevision: number;
}

/**
 * The Backend in its plainest form, kept in memory with no index and no log beneath: a reference
 * the storage suite runs against beside SQLite, so that a difference between the two is a bug in
 * the faster one. Every write is its own commit; watchers hear of it after the turn, as with SQLite.
 */
export class MemoryBackend implements Backend {
  /** Every write still in the compaction window, oldest first. */
  private history: Entry[] = [];
  private readonly current = new Map<string, StoredValue>();
  private readonly hub = new WatchHub();
  private revision = 0;
  /** The last revision watchers have been told of; a watch replays up to it and hears the rest. */
  private published = 0;
  private compacted = 0;
  private unpublished: StoreEvent[] = [];
  private publishing: Promise<void> | undefined;
  private closed = false;

  currentRevision(): number {
    return this.revision;
  }

  committedRevision(): number {
    return this.revision;
  }

  compactRevision(): number {
    return this.compacted;
  }

  get(key: string): StoredValue | undefined {
    return this.current.get(key);
  }

  count(prefix: string): number {
    return [...this.current.keys()].filter((k) => k.startsWith(prefix)).length;
  }

  list(prefix: string, opts: ListOptions = {}): ListResult {
    const revision = opts.revision ?? this.revision;
    if (revision < this.compacted) throw new CompactedError(revision, this.compacted);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Number.MAX_SAFE_INTEGER;
    const after = opts.startAfter;
    const all = [...this.valuesAt(revision).values()]
      .filter((v) => v.key.startsWith(prefix) && (after === undefined || v.key > after))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { items: all.slice(0, limit), revision, more: all.length > limit };
  }

  scan(prefix: string, opts: ScanOptions): ScanResult {
    const after = opts.startAfter ?? prefix;
    const keys = [...this.current.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
    const window = keys.slice(0, opts.window);
    const holds = (text: string): boolean => !opts.containing.length || opts.containing.some((n) => text.includes(n));
    const items: StoredValue[] = [];
    for (const k of window) {
      const v = this.current.get(k);
      if (v && holds(v.value)) items.push(v);
    }
    return { items, next: keys.length > opts.window ? window[window.length - 1] : undefined };
  }

  private valuesAt(revision: number): Map<string, StoredValue> {
    if (revision === this.revision) return this.current;
    const values = new Map<string, StoredValue>();
    for (const { event: e, createRevision } of this.history) {
      if (e.revision > revision) break;
      if (e.type === 'delete') values.delete(e.key);
      else values.set(e.key, { key: e.key, value: e.value, modRevision: e.revision, createRevision });
    }
    return values;
  }

  create(key: string, value: ValueAtRevision): WriteResult {
    const current = this.current.get(key);
    if (current) return { outcome: 'exists', current };
    return this.write('create', key, value, undefined);
  }

  update(key: string, expectedRevision: number, value: ValueAtRevision): WriteResult {
    const current = this.current.get(key);
    if (!current) return { outcome: 'not-found' };
    if (current.modRevision !== expectedRevision) return { outcome: 'conflict', current };
    return this.write('update', key, value, current);
  }

  delete(key: string, expectedRevision: number, value: ValueAtRevision): WriteResult {
    const current = this.current.get(key);
    if (!current) return { outcome: 'not-found' };
    if (expectedRevision !== 0 && current.modRevision !== expectedRevision) return { outcome: 'conflict', current };
    return this.write('delete', key, value, current);
  }

  private write(
    type: StoreEvent['type'],
    key: string,
    value: ValueAtRevision,
    before: StoredValue | undefined,
  ): WriteResult {
    if (this.closed) throw new StorageUnusableError(new Error('the memory backend is closed'));
    const rev = this.revision + 1;
    const stored = { key, value: value(rev), modRevision: rev, createRevision: before?.createRevision ?? rev };
    const event: StoreEvent = { type, key, revision: rev, value: stored.value, prevValue: before?.value };
    this.revision = rev;
    this.history.push({ event, createRevision: stored.createRevision });
    if (type === 'delete') this.current.delete(key);
    else this.current.set(key, stored);
    this.unpublished.push(event);
    this.publishing ??= new Promise<void>((resolve) => setImmediate(() => resolve(this.publish())));
    return { outcome: 'written', stored };
  }

  private publish(): void {
    const events = this.unpublished;
    this.unpublished = [];
    this.publishing = undefined;
    for (const e of events) {
      this.published = e.revision;
      this.hub.publish(e);
    }
  }

  sync(): Promise<void> {
    return this.publishing ?? Promise.resolve();
  }

  watch(prefix: string, fromRevision: number, onEvent: (e: StoreEvent) => void, onClosed?: () => void): WatchHandle {
    if (fromRevision < this.compacted) throw new CompactedError(fromRevision, this.compacted);
    for (const { event: e } of this.history) {
      if (e.revision > fromRevision && e.revision <= this.published && e.key.startsWith(prefix)) onEvent(e);
    }
    const seen = Math.max(fromRevision, this.published);
    return this.hub.subscribe(prefix, (e) => e.revision > seen && onEvent(e), onClosed);
  }

  onRollback(): void {
    // Nothing is ever undone in memory.
  }

  writeHealth(): Error | undefined {
    return undefined;
  }

  liveness(): Error | undefined {
    return this.closed ? new Error('the memory backend is closed') : undefined;
  }

  endWatches(): void {
    this.hub.closeAll();
  }

  /** Keeps each key's last write at or below the target unless it was a delete, and all later ones. */
  compact(revision: number): void {
    const target = Math.min(revision, this.revision);
    if (target <= this.compacted) return;
    const lastAtOrBelow = new Map<string, number>();
    for (const { event: e } of this.history) if (e.revision <= target) lastAtOrBelow.set(e.key, e.revision);
    this.history = this.history.filter(
      ({ event: e }) => e.revision > target || (lastAtOrBelow.get(e.key) === e.revision && e.type !== 'delete'),
    );
    this.compacted = target;
  }

  close(): void {
    this.closed = true;
    this.hub.closeAll();
  }
}
