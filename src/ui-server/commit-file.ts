// The file an object was applied from, as it is in the commit (the source controller keeps an
// export per commit), so the Flow page shows the definition with the line numbers a rejection's
// `file:line` message uses.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';

/** Larger files are not shown; a definition is a few kilobytes. */
const MAX_BYTES = 256 * 1024;

/** `relPath` inside `dir`, or undefined when it is missing, too large or would leave `dir`. */
export function readCommitFile(dir: string | undefined, relPath: string | undefined): string | undefined {
  if (!dir || !relPath) return undefined;
  const root = normalize(dir);
  const file = normalize(join(root, relPath));
  if (!file.startsWith(root + sep) || !existsSync(file)) return undefined;
  const stat = statSync(file);
  return stat.isFile() && stat.size <= MAX_BYTES ? readFileSync(file, 'utf8') : undefined;
}
