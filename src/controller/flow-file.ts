// The file a Flow was defined in, read from its commit's export, so that a template error can be
// reported at the file's line instead of the line inside the field.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import type { FlowFile } from '../api/template-positions.js';

/** A definition is a few kilobytes; a file larger than this is not kept in memory for messages. */
const MAX_BYTES = 1024 * 1024;

/** `relPath` inside `dir`; undefined when either is missing, the file is too large, or it would leave `dir`. */
export function readSourceFile(dir: string | undefined, relPath: string | undefined): FlowFile | undefined {
  if (!dir || !relPath) return undefined;
  const root = normalize(dir);
  const file = normalize(join(root, relPath));
  if (!file.startsWith(root + sep) || !existsSync(file)) return undefined;
  const stat = statSync(file);
  return stat.isFile() && stat.size <= MAX_BYTES ? { path: relPath, text: readFileSync(file, 'utf8') } : undefined;
}
