// The fields a change touches, as a reviewer reads them: `spec.template.spec.containers[0].image`.
// Computed on the comparable forms (no server noise, no status), so only what the commit changes shows.

import jsonPatch from 'fast-json-patch';
import type { KubeObject } from '../kube/index.js';
import { comparableObject } from './comparable.js';

const unescapePointer = (s: string): string => s.replaceAll('~1', '/').replaceAll('~0', '~');

function fieldOf(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = unescapePointer(raw);
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += /^[A-Za-z_][\w-]*$/.test(part) ? `${out ? '.' : ''}${part}` : `[${JSON.stringify(part)}]`;
  }
  return out;
}

/** Sorted, each once; a whole new object is no field list (`[]`). */
export function changedFields(live: KubeObject | undefined, desired: KubeObject | undefined): string[] {
  if (!live || !desired) return [];
  const ops = jsonPatch.compare(comparableObject(live), comparableObject(desired));
  return [...new Set(ops.map((op) => fieldOf(op.path)))].sort();
}
