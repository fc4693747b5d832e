import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { errors } from '../http/status.js';
import type { JsonObject } from '../registry/types.js';
import { cloneJson } from '../objects/json-clone.js';

const { applyPatch, JsonPatchError } = fastJsonPatch;

/** RFC 6902 JSON patch; a patch that cannot apply is a 422 without details, as kube-apiserver answers. */
export function jsonPatch(target: JsonObject, ops: unknown): JsonObject {
  if (!Array.isArray(ops)) throw errors.badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  try {
    return applyPatch(cloneJson(target), ops as Operation[], true, false).newDocument as JsonObject;
  } catch (e) {
    if (e instanceof JsonPatchError) throw errors.unprocessable(describe(e));
    throw e;
  }
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
