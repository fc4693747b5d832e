import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileChange } from './diff.js';

/**
 * A plain folder holding a source's path at one commit, so that a Flow's chart or kustomize path
 * resolves against the commit that applied it. Built from the previous commit's folder plus the
 * diff (cost follows the change); written to a temporary name and renamed, so a folder that
 * exists is complete.
 */
export const exportDirOf = (exportsDir: string, sha: string): string => join(exportsDir, sha);

export interface ExportOptions {
  exportsDir: string;
  sha: string;
  /** The folder of the commit `changes` were computed from, or undefined when `changes` lists every file. */
  base?: string | undefined;
  changes: readonly FileChange[];
  blobs: ReadonlyMap<string, Uint8Array>;
  /** Older exports kept besides this one (Flows may still be running against them). */
  keep?: number;
}

export function exportCommit(opts: ExportOptions): string {
  const target = exportDirOf(opts.exportsDir, opts.sha);
  if (existsSync(target)) {
    const now = new Date();
    utimesSync(target, now, now);
    return target;
  }
  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  if (opts.base && existsSync(opts.base)) cpSync(opts.base, tmp, { recursive: true });
  else mkdirSync(tmp, { recursive: true });
  for (const c of opts.changes) {
    const file = join(tmp, c.path);
    if (c.status === 'deleted') rmSync(file, { force: true });
    else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, opts.blobs.get(c.oid) ?? new Uint8Array());
    }
  }
  renameSync(tmp, target);
  prune(opts.exportsDir, opts.keep ?? 4, target);
  return target;
}

function prune(dir: string, keep: number, current: string): void {
  const dirs = readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((p) => p !== current)
    .map((p) => ({ p, t: statSync(p).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { p } of dirs.slice(keep)) rmSync(p, { recursive: true, force: true });
}
