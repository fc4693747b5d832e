// @unwind / @demux (spec §3.6): one document per list element, the element written back at the
// same path and `-<index>` appended to metadata.name.

import { getFirst, setPath, parseJsonPath } from '../../jsonpath/index.js';
import { fail, type Where } from '../value/coerce.js';
import { goSprintS } from '../value/gofmt.js';
import { describe, isMap, isNil, type Doc } from '../../util/json-value.js';
import type { StageSpec } from './spec.js';

type Unwind = Extract<StageSpec, { t: 'unwind' }>;

const namePath = parseJsonPath('$.metadata.name');

function errMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function unwindDoc(stage: Unwind, doc: Doc): Doc[] {
  const at: Where = { op: stage.op, path: stage.path };
  if (!stage.source.startsWith('$')) {
    return fail(at, `the argument must be a JSONPath, got ${JSON.stringify(stage.source)}`);
  }
  const ref = stage.ref;
  if (!ref.ok) return fail(at, ref.error);
  if (ref.subject) return fail(at, '$$ paths cannot be unwound');
  const list = getFirst(ref.path, doc);
  if (isNil(list)) return [];
  if (!Array.isArray(list)) return fail(at, `${stage.source} must be a list, got ${describe(list)}`);
  const meta = doc.metadata;
  // A missing name is not an error in the original; Go's fmt prints "%!s(<nil>)" in its place.
  const base = goSprintS(isMap(meta) ? meta.name : undefined);
  return list.map((elem, i) => {
    try {
      const withElem = setPath(doc, ref.path, elem);
      return setPath(withElem, namePath, `${base}-${i}`) as Doc;
    } catch (e) {
      return fail(at, `cannot write element ${i}: ${errMessage(e)}`);
    }
  });
}
