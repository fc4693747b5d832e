// One file of a commit's export (export.ts), read for showing or for placing a message: never a
// path outside the export, never a file larger than the caller will hold in memory.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';

/** `relPath` inside `dir`; undefined when either is missing, the file exceeds `maxBytes`, or it would leave `dir`. */
export function readExportFile(
  dir: string | undefined,
  relPath: string | undefined,
  maxBytes: number,
): string | undefined {
  if (!dir || !relPath) return undefined;
  const root = normalize(dir);
  const file = normalize(join(root, relPath));
  if (!file.startsWith(root + sep) || !existsSync(file)) return undefined;
  const stat = statSync(file);
  return stat.isFile() && stat.size <= maxBytes ? readFileSync(file, 'utf8') : undefined;
}
