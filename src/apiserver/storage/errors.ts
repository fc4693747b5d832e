// The storage's closed error set. A lost compare-and-swap is not here: it is a WriteResult.

export type StorageErrorCode = 'Compacted' | 'Unusable' | 'BadCacheLimits';

export abstract class StorageError extends Error {
  abstract readonly code: StorageErrorCode;
}

/** A read or watch asked for a revision older than the compaction window. */
export class CompactedError extends StorageError {
  readonly code = 'Compacted';
  constructor(
    readonly requested: number,
    readonly compacted: number,
  ) {
    super(`too old resource version: ${requested} (${compacted})`);
  }
}

/** A write refused because the database cannot be used again (corrupt or closed); a restart is needed. */
export class StorageUnusableError extends StorageError {
  readonly code = 'Unusable';
  constructor(why: Error) {
    super(`storage cannot be used again (restart the server): ${why.message}`, { cause: why });
  }
}

/** A cache limit that is not a whole number >= 0 (a flag or an option the caller passed). */
export class BadCacheLimitsError extends StorageError {
  readonly code = 'BadCacheLimits';
  constructor(field: string, got: unknown) {
    super(`storage cache: ${field} must be a whole number >= 0 (0 turns the cache off), got ${String(got)}`);
  }
}
