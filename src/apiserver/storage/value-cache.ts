import { LRUCache } from 'lru-cache';
import { DEFAULT_STORAGE_CACHE_MIB, DEFAULT_STORAGE_CACHE_OBJECTS } from '../server-defaults.js';
import { BadCacheLimitsError } from './errors.js';
import type { StoredValue } from './types.js';

/** How much of the store stays in memory: at most `maxObjects` values and `maxBytes` of their text. */
export interface CacheLimits {
  maxObjects: number;
  maxBytes: number;
}

/** 10,000 values or 64 MiB, whichever is reached first: the hot set of a cluster of that size, not all of it. */
export const DEFAULT_CACHE_LIMITS: CacheLimits = {
  maxObjects: DEFAULT_STORAGE_CACHE_OBJECTS,
  maxBytes: DEFAULT_STORAGE_CACHE_MIB * 1024 * 1024,
};

/** What one entry costs beside its text: the StoredValue, its key and the LRU's own slot. */
const ENTRY_OVERHEAD = 160;

/**
 * The committed value of recently read or written keys, each under its key with the revision it
 * was read at, least recently used first out. It holds the JSON text, not a parsed object: a
 * read answers a client with the text as it is, and a write parses its own private copy.
 */
export class ValueCache {
  private readonly lru: LRUCache<string, StoredValue> | undefined;

  constructor(limits: CacheLimits) {
    const { maxObjects, maxBytes } = limits;
    if (!Number.isInteger(maxObjects) || maxObjects < 0) throw new BadCacheLimitsError('maxObjects', maxObjects);
    if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new BadCacheLimitsError('maxBytes', maxBytes);
    // A limit of 0 turns the cache off: every read goes to SQLite.
    if (maxObjects === 0 || maxBytes === 0) return;
    this.lru = new LRUCache({
      max: maxObjects,
      maxSize: maxBytes,
      sizeCalculation: (v) => 2 * (v.value.length + v.key.length) + ENTRY_OVERHEAD,
    });
  }

  get(key: string): StoredValue | undefined {
    return this.lru?.get(key);
  }

  set(v: StoredValue): void {
    this.lru?.set(v.key, v);
  }

  delete(key: string): void {
    this.lru?.delete(key);
  }

  /** How many values it may hold (0: it is off). */
  get capacity(): number {
    return this.lru?.max ?? 0;
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }

  get bytes(): number {
    return this.lru?.calculatedSize ?? 0;
  }
}
