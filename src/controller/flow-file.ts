// The file a Flow was defined in, read from its commit's export, so that a template error can be
// reported at the file's line instead of the line inside the field.

import type { FlowFile } from '../api/index.js';
import { readExportFile } from '../source/read-export-file.js';

/** A definition is a few kilobytes; a file larger than this is not kept in memory for messages. */
const MAX_BYTES = 1024 * 1024;

/** `relPath` inside `dir`; undefined when either is missing, the file is too large, or it would leave `dir`. */
export function readSourceFile(dir: string | undefined, relPath: string | undefined): FlowFile | undefined {
  const text = readExportFile(dir, relPath, MAX_BYTES);
  return text === undefined || relPath === undefined ? undefined : { path: relPath, text };
}
