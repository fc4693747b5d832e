// kubectl's way of writing one path (client-go's util/jsonpath, as printer columns, `kubectl get
// -o jsonpath` and `kubectl wait --for=jsonpath` take it): optionally in braces, with or without
// the leading `$`, starting at a field (`.a.b`, `a.b`) or a bracket. It is read into the same
// steps as the pipeline dialect, so there is one evaluator for both. Templates with several
// expressions, `range` and literal text are not paths and are refused.
import type { JsonPath } from './ast.js';
import { JsonPathSyntaxError } from './errors.js';
import { getAll } from './get.js';
import { parseJsonPathCached } from './parse.js';

/** Parses a kubectl-style path; throws JsonPathSyntaxError naming the text. */
export function parseKubectlPath(text: string): JsonPath {
  let p = text.trim();
  const braced = /^\{(.*)\}$/s.exec(p);
  if (braced) p = (braced[1] ?? '').trim();
  if (/[{}]/.test(p))
    throw new JsonPathSyntaxError(`unsupported JSONPath ${JSON.stringify(text)}: one {…} expression only`);
  if (p.startsWith('$')) p = p.slice(1);
  if (p === '' || p === '.') return parseJsonPathCached('$');
  if (!p.startsWith('.') && !p.startsWith('[')) p = `.${p}`;
  try {
    return parseJsonPathCached(`$${p}`);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new JsonPathSyntaxError(`unsupported JSONPath ${JSON.stringify(text)}: ${reason}`);
  }
}

/** Every match of a kubectl-style path, in order. */
export function evalKubectlPath(obj: unknown, text: string): unknown[] {
  const path = parseKubectlPath(text);
  return getAll(path, obj, obj, Infinity, 'document');
}
