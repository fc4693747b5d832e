// Writing with a parsed JSONPath, copy-on-write: every container on the way is copied, so values
// shared with input documents are never modified. Missing maps are created for name steps and
// missing lists for index steps; writing past the end of a list pads it with nulls.

import { describe, isMap, isNil, copyMap } from '../util/json-value.js';
import type { JsonPath, Step } from './ast.js';
import { JsonPathSetError } from './errors.js';
import { filterMatches } from './get.js';

function setIndex(
  node: unknown,
  index: number,
  steps: readonly Step[],
  i: number,
  value: unknown,
  root: unknown,
): unknown[] {
  if (!isNil(node) && !Array.isArray(node)) throw new JsonPathSetError(`cannot index into ${describe(node)}`);
  const list = Array.isArray(node) ? node.slice() : [];
  const idx = index < 0 ? list.length + index : index;
  if (idx < 0) throw new JsonPathSetError(`index ${index} is out of range`);
  while (list.length < idx) list.push(null);
  list[idx] = setAt(list[idx], steps, i + 1, value, root);
  return list;
}

function setChild(
  node: unknown,
  name: string,
  steps: readonly Step[],
  i: number,
  value: unknown,
  root: unknown,
): Record<string, unknown> {
  if (!isNil(node) && !isMap(node))
    throw new JsonPathSetError(`cannot set field ${JSON.stringify(name)} inside ${describe(node)}`);
  // `__proto__` as a plain assignment would replace the copy's prototype instead of adding a key.
  if (name === '__proto__') throw new JsonPathSetError('cannot set field "__proto__"');
  const map = isMap(node) ? copyMap(node) : {};
  map[name] = setAt(Object.hasOwn(map, name) ? map[name] : undefined, steps, i + 1, value, root);
  return map;
}

/** Writes into every existing child the predicate accepts. */
function setEach(
  node: unknown,
  steps: readonly Step[],
  i: number,
  value: unknown,
  root: unknown,
  accept: (child: unknown, key: number | string) => boolean,
): unknown {
  if (Array.isArray(node)) {
    return node.map((c, k) => (accept(c, k) ? setAt(c, steps, i + 1, value, root) : c));
  }
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const [k, c] of Object.entries(node)) out[k] = accept(c, k) ? setAt(c, steps, i + 1, value, root) : c;
    return out;
  }
  return node;
}

function setAt(node: unknown, steps: readonly Step[], i: number, value: unknown, root: unknown): unknown {
  if (i === steps.length) return value;
  const step = steps[i] as Step;
  switch (step.t) {
    case 'child':
      return setChild(node, step.name, steps, i, value, root);
    case 'index':
      return setIndex(node, step.index, steps, i, value, root);
    case 'wild':
      return setEach(node, steps, i, value, root, () => true);
    case 'union': {
      let cur = node;
      for (const it of step.items) cur = setAt(cur, [it, ...steps.slice(i + 1)], 0, value, root);
      return cur;
    }
    case 'slice': {
      if (!Array.isArray(node)) return node;
      const len = node.length;
      const start = step.start === undefined ? 0 : step.start < 0 ? len + step.start : step.start;
      const end = step.end === undefined ? len : step.end < 0 ? len + step.end : step.end;
      const by = step.step ?? 1;
      return setEach(
        node,
        steps,
        i,
        value,
        root,
        (_c, k) => typeof k === 'number' && k >= start && k < end && (k - start) % by === 0,
      );
    }
    case 'filter':
      return setEach(node, steps, i, value, root, (c) => filterMatches(step.expr, c, root));
    default:
      throw new JsonPathSetError('recursive descent (..) cannot be used to set a value');
  }
}

/**
 * Returns a copy of `target` with `value` written at `path`. Throws a plain Error when the path
 * runs through a scalar or cannot be written.
 */
export function setPath(target: unknown, path: JsonPath, value: unknown): unknown {
  if (path.root !== '$') throw new JsonPathSetError('only $-rooted paths can be set');
  if (path.steps.length === 0) throw new JsonPathSetError('cannot replace the root; use "$." with a map value');
  return setAt(target, path.steps, 0, value, target);
}
