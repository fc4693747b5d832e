import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { ApiError, errors } from '../http/status.js';
import type { JsonObject } from '../registry/types.js';
import { cloneJson } from '../objects/json-clone.js';

const { applyPatch, getValueByPointer, JsonPatchError } = fastJsonPatch;

/** RFC 6902 JSON patch; a patch that cannot apply is a 422 without details, as kube-apiserver answers. */
export function jsonPatch(target: JsonObject, ops: unknown): JsonObject {
  if (!Array.isArray(ops))
    throw errors.badRequest(
      `error decoding patch: json: cannot unmarshal ${ops === null ? 'null' : typeof ops === 'object' ? 'object' : typeof ops} into Go value of type []handlers.jsonPatchOp`,
    );
  try {
    let doc = cloneJson(target);
    // One at a time: a replace of a key an object lacks adds it, as kube-apiserver's json-patch does.
    for (const op of ops as Operation[])
      doc = applyPatch(doc, [replaceOfMissingKeyAsAdd(doc, op)], true, true).newDocument as JsonObject;
    return doc;
  } catch (e) {
    if (e instanceof JsonPatchError && e.name === 'TEST_OPERATION_FAILED')
      throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
    if (e instanceof JsonPatchError) throw errors.unprocessable(describe(e));
    throw e;
  }
}

function replaceOfMissingKeyAsAdd(doc: JsonObject, op: Operation): Operation {
  if (op.op !== 'replace' || typeof op.path !== 'string') return op;
  const cut = op.path.lastIndexOf('/');
  if (cut < 0) return op;
  let parent: unknown;
  try {
    parent = op.path.slice(0, cut) === '' ? doc : getValueByPointer(doc, op.path.slice(0, cut));
  } catch {
    return op;
  }
  if (!parent || typeof parent !== 'object' || Array.isArray(parent)) return op;
  const key = op.path
    .slice(cut + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  return Object.hasOwn(parent, key) ? op : { op: 'add', path: op.path, value: op.value };
}

function describe(e: InstanceType<typeof JsonPatchError>): string {
  const op = e.operation as Partial<Operation> | undefined;
  const path = op?.path ?? '';
  switch (e.name) {
    case 'TEST_OPERATION_FAILED':
      return `testing value ${path} failed: test failed`;
    case 'OPERATION_PATH_UNRESOLVABLE':
      return `${op?.op ?? 'patch'} operation does not apply: doc is missing path: "${path}": missing value`;
    case 'OPERATION_FROM_UNRESOLVABLE':
      return `${op?.op ?? 'patch'} operation does not apply: doc is missing from path: "${(op as { from?: string }).from ?? ''}": missing value`;
    default:
      return `the server rejected our request due to an error in our request: ${e.message.split('\n')[0]}`;
  }
}
