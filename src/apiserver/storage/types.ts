// The storage boundary of the embedded API server, shaped like kine's Backend: plain parameters,
// every answer carries the revision it was read at, a lost compare-and-swap is an answer (not a
// throw), and the layers above never see SQL.

export interface StoredValue {
  key: string;
  /** JSON text of the object, with metadata.resourceVersion already equal to modRevision. */
  value: string;
  modRevision: number;
  createRevision: number;
}

export type StoreEventType = 'create' | 'update' | 'delete';

export interface StoreEvent {
  type: StoreEventType;
  key: string;
  revision: number;
  /** The object after the write; for a delete, its last state stamped with the delete's revision. */
  value: string;
  /** The object before the write (undefined for a create). */
  prevValue: string | undefined;
}

export interface ListResult {
  items: StoredValue[];
  revision: number;
  /** Set when a limit cut the listing short. */
  more: boolean;
}

export interface ListOptions {
  startAfter?: string;
  limit?: number;
  revision?: number;
}

export interface ScanOptions {
  startAfter?: string;
  /** How many keys one call looks at (matching or not), so a call's cost is bounded. */
  window: number;
  /** Only values whose JSON text holds one of these (a prefilter: callers still check the object). */
  containing: readonly string[];
}

export interface ScanResult {
  items: StoredValue[];
  /** The `startAfter` of the next window; undefined once the prefix is done. */
  next: string | undefined;
}

export interface WatchHandle {
  cancel(): void;
}

/** Builds the stored text once the revision of the write is known. */
export type ValueAtRevision = (revision: number) => string;

/**
 * What a compare-and-swap answers, as kine's Create/Update/Delete do with their `succeeded` flag:
 * `written` with what is stored now, or why nothing was written. The caller switches on `outcome`.
 */
export type WriteResult =
  | { outcome: 'written'; stored: StoredValue }
  /** A create found the key there (`current`). */
  | { outcome: 'exists'; current: StoredValue }
  /** An update or delete expected another revision than the key's (`current`). */
  | { outcome: 'conflict'; current: StoredValue }
  /** An update or delete found no such key. */
  | { outcome: 'not-found' };

export interface Backend {
  currentRevision(): number;
  /** The last revision the database has committed (currentRevision may be ahead until the group commit). */
  committedRevision(): number;
  compactRevision(): number;
  get(key: string): StoredValue | undefined;
  /** Current values under a prefix, ordered by key; `startAfter` and `limit` page through them. */
  list(prefix: string, opts?: ListOptions): ListResult;
  count(prefix: string): number;
  /**
   * One bounded window of a walk over the current values under `prefix` whose text holds a needle:
   * for a background pass over everything (the garbage collector's owner index) that must not
   * make the process hold, or parse, every value at once.
   */
  scan(prefix: string, opts: ScanOptions): ScanResult;
  create(key: string, value: ValueAtRevision): WriteResult;
  /** Compare-and-swap on the key's current modRevision. */
  update(key: string, expectedRevision: number, value: ValueAtRevision): WriteResult;
  /** Compare-and-swap as `update`; an `expectedRevision` of 0 deletes whatever revision is current. */
  delete(key: string, expectedRevision: number, value: ValueAtRevision): WriteResult;
  /**
   * Calls `onEvent` for every write under `prefix` after `fromRevision` — history first, then live.
   * Throws CompactedError when `fromRevision` is older than the compaction window.
   */
  watch(prefix: string, fromRevision: number, onEvent: (e: StoreEvent) => void, onClosed?: () => void): WatchHandle;
  /** Resolves once every write made so far is durable; answer a client only after it. */
  sync(): Promise<void>;
  /** Told of the writes a failed commit undid, newest first: they never happened. */
  onRollback(listener: (undone: StoreEvent[]) => void): void;
  /** Undefined while writes can be stored, else why not (readiness). */
  writeHealth(): Error | undefined;
  /** Undefined unless the store cannot recover without a restart (liveness). */
  liveness(): Error | undefined;
  /** Ends all watches (their `onClosed` runs) without closing the database. */
  endWatches(): void;
  /** Drops history at or below `revision` (never the current value of a key). */
  compact(revision: number): void;
  close(): void;
}
