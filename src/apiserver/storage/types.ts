// The storage boundary of the embedded API server, shaped like kine's Backend: plain parameters,
// every answer carries the revision it was read at, and the layers above never see SQL.

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
  /** Set when a limit cut the listing short: the last key returned. */
  more: boolean;
}

export interface WatchHandle {
  cancel(): void;
}

/** Builds the stored text once the revision of the write is known. */
export type ValueAtRevision = (revision: number) => string;

export interface Store {
  currentRevision(): number;
  /** The last revision the database has committed (currentRevision may be ahead until the group commit). */
  committedRevision(): number;
  compactRevision(): number;
  get(key: string): StoredValue | undefined;
  /** Current values under a prefix, ordered by key; `startAfter` and `limit` page through them. */
  list(prefix: string, opts?: { startAfter?: string; limit?: number; revision?: number }): ListResult;
  count(prefix: string): number;
  create(key: string, value: ValueAtRevision): StoredValue;
  /** Compare-and-swap on the key's current modRevision. */
  update(key: string, expectedRevision: number, value: ValueAtRevision): StoredValue;
  delete(key: string, expectedRevision: number, value: ValueAtRevision): StoredValue;
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

export class KeyExistsError extends Error {
  constructor(readonly key: string) {
    super(`key ${key} already exists`);
  }
}

export class KeyNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`key ${key} not found`);
  }
}

/** A compare-and-swap lost: `current` is what is stored now. */
export class RevisionConflictError extends Error {
  constructor(readonly key: string, readonly current: StoredValue) {
    super(`key ${key} was modified (now at revision ${current.modRevision})`);
  }
}

export class CompactedError extends Error {
  constructor(readonly requested: number, readonly compacted: number) {
    super(`too old resource version: ${requested} (${compacted})`);
  }
}
