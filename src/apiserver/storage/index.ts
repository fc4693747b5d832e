// The storage's face: the Backend the API server writes through, and the two that implement it.
import { LogStructured } from './log-structured.js';
import { SqliteLog } from './sqlite/sqlite-log.js';
import type { Backend } from './types.js';

export type {
  Backend,
  ListOptions,
  ListResult,
  StoreEvent,
  StoreEventType,
  StoredValue,
  ValueAtRevision,
  WatchHandle,
  WriteResult,
} from './types.js';
export { CompactedError, StorageError, StorageUnusableError, type StorageErrorCode } from './errors.js';
export { MemoryBackend } from './memory-backend.js';

/** The backend on a SQLite file (created if absent): kine's layers, log-structured over the SQL log. */
export function openSqliteBackend(file: string): Backend {
  return new LogStructured(new SqliteLog(file));
}
