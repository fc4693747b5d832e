// Step outputs read with a kubectl-style JSONPath (src/jsonpath), shaped as values that can travel
// through templates and status.
import { evalKubectlPath } from '../jsonpath/index.js';
import type { OutputValue } from './types.js';

/** One output value: null when nothing matches, the value for one match, a list for several. */
export function jsonPathOutput(obj: unknown, path: string): OutputValue {
  const found = evalKubectlPath(obj, path);
  if (found.length === 0) return null;
  return toOutputValue(found.length === 1 ? found[0] : found);
}

/** JSON-shaped copy: undefined and functions cannot travel through templates or status. */
export function toOutputValue(v: unknown): OutputValue {
  if (v === undefined) return null;
  return JSON.parse(JSON.stringify(v) ?? 'null') as OutputValue;
}
