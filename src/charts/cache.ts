import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A chart archive on disk, named by the sha256 of its bytes. */
export interface CachedChart {
  path: string;
  digest: string;
  size: number;
}

export const DEFAULT_CACHE_BYTES = 512 * 1024 * 1024;

const FILE = /^([0-9a-f]{64})\.tgz$/;
const hexOf = (digest: string): string => digest.replace(/^sha256:/, '');

/** $FLOWOPS_CHART_CACHE, else $XDG_CACHE_HOME/flowops/charts, else ~/.cache/flowops/charts. */
export function defaultCacheDir(): string {
  if (process.env.FLOWOPS_CHART_CACHE) return process.env.FLOWOPS_CHART_CACHE;
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'flowops', 'charts');
}

/**
 * Pulled charts by digest, so that a reconcile whose chart resolved to a digest already pulled
 * reads it from disk. Bounded by total size: the least recently used archives go first (their
 * mtime is touched on every hit). A file that no longer hashes to its name is dropped, not used.
 */
export class ChartCache {
  constructor(
    readonly dir: string,
    private readonly maxBytes = DEFAULT_CACHE_BYTES,
  ) {}

  /** The archive for `digest` (sha256:<hex>), checked against it; undefined when absent or corrupt. */
  async get(digest: string): Promise<CachedChart | undefined> {
    const path = join(this.dir, `${hexOf(digest)}.tgz`);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      return undefined;
    }
    if (`sha256:${createHash('sha256').update(bytes).digest('hex')}` !== digest) {
      await unlink(path).catch(() => undefined);
      return undefined;
    }
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
    return { path, digest, size: bytes.length };
  }

  /** Stores verified bytes under their digest (write then rename: a reader never sees half a file). */
  async put(digest: string, bytes: Uint8Array): Promise<CachedChart> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const path = join(this.dir, `${hexOf(digest)}.tgz`);
    const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    await writeFile(partial, bytes, { mode: 0o600 });
    await rename(partial, path);
    await this.evict(path);
    return { path, digest, size: bytes.length };
  }

  /** Removes the least recently used archives until the total fits; `keep` (just written) stays. */
  private async evict(keep: string): Promise<void> {
    const files: Array<{ path: string; size: number; used: number }> = [];
    for (const name of await readdir(this.dir).catch(() => [])) {
      if (!FILE.test(name)) continue;
      const path = join(this.dir, name);
      const s = await stat(path).catch(() => undefined);
      if (s) files.push({ path, size: s.size, used: s.mtimeMs });
    }
    let total = files.reduce((sum, f) => sum + f.size, 0);
    for (const f of files.sort((a, b) => a.used - b.used)) {
      if (total <= this.maxBytes) break;
      if (f.path === keep) continue;
      await unlink(f.path).catch(() => undefined);
      total -= f.size;
    }
  }
}
