import { metadataOf } from '../objects/meta.js';
import { resetRootsOf } from '../objects/strategy.js';
import type { WriteOptions } from '../objects/object-store.js';
import { jsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import { ApplyConflictError, InvalidApplyError, ManagedFieldsError, serverSideApply } from '../patch/apply/index.js';
import { strategicMergePatch, supportsStrategicMerge, PatchError } from '../patch/strategic/index.js';
import { type JsonObject, type ResourceType, apiVersionOf } from '../registry/types.js';
import { parseJsonBody, parseYamlBody } from './body.js';
import { checkJsonNesting, type DecodeSite } from './nesting.js';
import { booleanParam } from './query.js';
import { checkNamespaceOpen } from './namespace-open.js';
import type { ResourceContext } from './resource-handlers.js';
import { ApiError, errors } from './status.js';
import { listTypeFor } from '../objects/list-types.js';

const isMap = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** PATCH in its four media types; returns 201 only when an apply created the object. */
export function applyPatchBody(
  ctx: ResourceContext,
  t: ResourceType,
  namespace: string | undefined,
  name: string,
  type: string,
  raw: Buffer,
  q: URLSearchParams,
  opts: WriteOptions,
): { code: number; object: JsonObject } {
  switch (type) {
    case 'application/merge-patch+json': {
      const patch = parsePatchBody(raw, 'patch');
      if (!isMap(patch)) throw errors.badRequest('the patch is not a JSON object');
      return {
        code: 200,
        object: ctx.objects.patch(t, namespace, name, (cur) => mergePatch(cur, patch) as JsonObject, opts),
      };
    }
    case 'application/json-patch+json': {
      const ops = parsePatchBody(raw, 'patch');
      return { code: 200, object: ctx.objects.patch(t, namespace, name, (cur) => jsonPatch(cur, ops), opts) };
    }
    case 'application/strategic-merge-patch+json': {
      if (t.custom || !supportsStrategicMerge({ group: t.group, version: t.version, kind: t.kind }))
        throw errors.unsupportedMediaType();
      const patch = parsePatchBody(raw, 'strategic');
      if (!isMap(patch)) throw errors.badRequest('the patch is not a JSON object');
      return { code: 200, object: ctx.objects.patch(t, namespace, name, (cur) => strategic(cur, patch, t), opts) };
    }
    case 'application/apply-patch+yaml':
      return apply(ctx, t, namespace, name, raw, q, opts);
    default:
      throw errors.unsupportedPatchType();
  }
}

/** A patch body that is no JSON: kube-apiserver's patch handler words it `error decoding patch: …`. */
function parsePatchBody(raw: Buffer, site: DecodeSite): unknown {
  checkJsonNesting(raw, site);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    const message = (e as Error).message;
    // Go's encoding/json says it in lower case; other syntax errors keep JavaScript's wording.
    throw errors.badRequest(
      `error decoding patch: ${/^Unexpected end of JSON input/.test(message) ? 'unexpected end of JSON input' : message}`,
    );
  }
}

function strategic(cur: JsonObject, patch: JsonObject, t: ResourceType): JsonObject {
  try {
    return strategicMergePatch(cur, patch, { group: t.group, version: t.version, kind: t.kind });
  } catch (e) {
    if (e instanceof PatchError)
      throw new ApiError(
        e.code,
        e.code === 400 ? 'BadRequest' : e.code === 422 ? 'Invalid' : 'InternalError',
        e.message,
      );
    throw e;
  }
}

function apply(
  ctx: ResourceContext,
  t: ResourceType,
  namespace: string | undefined,
  name: string,
  raw: Buffer,
  q: URLSearchParams,
  opts: WriteOptions,
): { code: number; object: JsonObject } {
  const manager = q.get('fieldManager');
  if (!manager)
    throw errors.invalidOptions('PatchOptions', {
      reason: 'FieldValueRequired',
      message: 'Required value: is required for apply patch',
      field: 'fieldManager',
    });
  const applied = raw[0] === 0x7b ? parseJsonBody(raw, 'apply') : parseYamlBody(raw, 'apply');
  if (!isMap(applied)) throw errors.badRequest('the apply configuration is not an object');
  // The configuration's own type decides how it is decoded: without apiVersion and kind there is none.
  if (
    typeof applied.apiVersion !== 'string' ||
    !applied.apiVersion ||
    typeof applied.kind !== 'string' ||
    !applied.kind
  ) {
    const apiVersion = typeof applied.apiVersion === 'string' ? applied.apiVersion : '';
    const groupVersion = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
    throw errors.badRequest(
      `invalid object type: ${groupVersion}, Kind=${typeof applied.kind === 'string' ? applied.kind : ''}`,
    );
  }
  const bodyName = metadataOf(applied).name;
  if (bodyName !== undefined && bodyName !== name) {
    throw errors.badRequest(
      `the name of the object (${String(bodyName)}) does not match the name on the URL (${name})`,
    );
  }
  const force = booleanParam(q, 'force');
  const run = (live: JsonObject | undefined): JsonObject => {
    try {
      const result = serverSideApply({
        live,
        applied,
        manager,
        force,
        apiVersion: apiVersionOf(t),
        now: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        listType: listTypeFor(t),
        ignoreStatus: t.statusSubresource && opts.subresource !== 'status',
        ...(opts.subresource ? { subresource: opts.subresource } : {}),
        ...resetRootsOf(t),
      });
      metadataOf(result.object).managedFields = result.managedFields as unknown as JsonObject[];
      return result.object;
    } catch (e) {
      if (e instanceof ApplyConflictError) throw conflict(e);
      if (e instanceof InvalidApplyError || e instanceof ManagedFieldsError) throw errors.badRequest(e.message);
      throw e;
    }
  };
  const applyOpts: WriteOptions = { ...opts, managedFieldsSet: true };
  if (!ctx.objects.getStored(t, namespace, name)) {
    const created = run(undefined);
    metadataOf(created).name = name;
    checkNamespaceOpen(ctx, t, namespace, created);
    return { code: 201, object: ctx.objects.create(t, namespace, created, applyOpts) };
  }
  return { code: 200, object: ctx.objects.patch(t, namespace, name, (cur) => run(cur), applyOpts) };
}

/**
 * SSA conflicts: 409 whose message is the apply error itself and whose details are only the
 * causes naming each field (kube-apiserver's fieldmanager builds the Status without name or kind).
 */
function conflict(e: ApplyConflictError): ApiError {
  const causes = e.conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: c.message, field: c.field }));
  return new ApiError(409, 'Conflict', e.message, { causes });
}
