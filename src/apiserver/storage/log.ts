import type { StoreEvent, StoredValue } from './types.js';

/** One appended write: its revision is the row's id, as in kine's table. */
export interface LogRow {
  revision: number;
  key: string;
  created: boolean;
  deleted: boolean;
  createRevision: number;
  /**
   * The revision this write replaced (the key's last row), or for a create the revision it was
   * decided at; with the key it is unique, so two writes that read the same state cannot both commit.
   */
  prevRevision: number;
  value: string;
}

/** What a log holds when it is opened. */
export interface LogState {
  revision: number;
  compacted: number;
  current: Iterable<StoredValue>;
}

/**
 * The durable revision log beneath the log-structured layer (kine's logstructured.Log): it appends
 * and answers history; the layer above keeps the current values, the watches and the group commit.
 */
export interface Log {
  load(): LogState;
  /** Appends every row in one transaction: all of them or, on a throw, none. */
  append(rows: LogRow[]): void;
  /** Every write under `prefix` after `revision`, oldest first. */
  after(prefix: string, revision: number): StoreEvent[];
  /** The values under `prefix` at `revision`, after `startAfter`, ordered by key, at most `limit`. */
  listAt(prefix: string, startAfter: string | undefined, revision: number, limit: number): StoredValue[];
  compact(revision: number): void;
  /** A one-row write that tells whether writes can be stored again. */
  probe(): void;
  /** Whether `err`, thrown by this log, means the file cannot be trusted again by this process. */
  isFatal(err: Error): boolean;
  readonly isOpen: boolean;
  close(): void;
}

/** The smallest string greater than every string that starts with `prefix`. */
export function prefixEnd(prefix: string): string {
  return `${prefix}\uffff`;
}
