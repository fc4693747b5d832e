// The storage's face: the Backend the API server writes through, and the two that implement it.
import { LogStructured } from './log-structured.js';
import type { CacheLimits } from './value-cache.js';
import { SqliteLog } from './sqlite/sqlite-log.js';
import type { Backend } from './types.js';

export type {
  Backend,
  ListOptions,
  ListResult,
  ScanOptions,
  ScanResult,
  StoreEvent,
  StoreEventType,
  StoredValue,
  ValueAtRevision,
  WatchHandle,
  WriteResult,
} from './types.js';
export {
  BadCacheLimitsError,
  CompactedError,
  StorageError,
  StorageUnusableError,
  type StorageErrorCode,
} from './errors.js';
export { MemoryBackend } from './memory-backend.js';
export { DEFAULT_CACHE_LIMITS, type CacheLimits } from './value-cache.js';

/**
 * The backend on a SQLite file (created if absent): kine's layers, log-structured over the SQL log,
 * reads answered from SQLite through a cache bounded by `cache`.
 */
export function openSqliteBackend(file: string, cache?: Partial<CacheLimits>): Backend {
  return new LogStructured(new SqliteLog(file), cache);
}
