// The newest modification time and the number of .ts files under a folder: what a build of it
// depends on. Shared by the build (scripts/build-stamp.mjs) and bin/flowops.js, which compares.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {{ newest: number, files: number }} */
export function sourceState(dir) {
  let newest = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    files++;
    const m = statSync(join(entry.parentPath, entry.name)).mtimeMs;
    if (m > newest) newest = m;
  }
  return { newest, files };
}
