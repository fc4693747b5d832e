// The file an object was applied from, as it is in the commit (the source controller keeps an
// export per commit), so the Flow page shows the definition with the line numbers a rejection's
// `file:line` message uses.

import { readExportFile } from '../source/read-export-file.js';

/** Larger files are not shown; a definition is a few kilobytes. */
const MAX_BYTES = 256 * 1024;

/** `relPath` inside `dir`, or undefined when it is missing, too large or would leave `dir`. */
export function readCommitFile(dir: string | undefined, relPath: string | undefined): string | undefined {
  return readExportFile(dir, relPath, MAX_BYTES);
}
