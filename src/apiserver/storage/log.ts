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

/** Where a key's value is stored, without the value: a list takes the texts its cache holds from there. */
export interface RowRef {
  key: string;
  modRevision: number;
  createRevision: number;
}

/** What a log tells when it is opened: two numbers, never its values (start must not read them). */
export interface LogState {
  revision: number;
  compacted: number;
}

/** One window of a scan: the matching current values, and where the next window starts (undefined: at the end). */
export interface ScanPage {
  items: StoredValue[];
  next: string | undefined;
}

/**
 * The durable revision log beneath the log-structured layer (kine's logstructured.Log): it appends
 * and answers reads; the layer above keeps the unflushed writes, a bounded cache, the watches and the group commit.
 */
export interface Log {
  load(): LogState;
  /** The key's value as last committed (undefined: absent or deleted). */
  latest(key: string): StoredValue | undefined;
  /** Appends every row in one transaction: all of them or, on a throw, none. */
  append(rows: LogRow[]): void;
  /** Every write under `prefix` after `revision`, oldest first. */
  after(prefix: string, revision: number): StoreEvent[];
  /** The rows holding the values under `prefix` at `revision`, after `startAfter`, ordered by key, at most `limit`. */
  listAt(prefix: string, startAfter: string | undefined, revision: number, limit: number): RowRef[];
  /** As listAt, with the values read in the same statement. */
  listValuesAt(prefix: string, startAfter: string | undefined, revision: number, limit: number): StoredValue[];
  /** The texts of these rows (by revision); a compacted row is absent. */
  values(revisions: readonly number[]): Map<number, string>;
  /** How many keys under `prefix` hold a value at `revision`. */
  countAt(prefix: string, revision: number): number;
  /** The current values under `prefix` among the next `window` keys after `startAfter` whose text holds a needle. */
  scan(prefix: string, startAfter: string | undefined, window: number, needles: readonly string[]): ScanPage;
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
