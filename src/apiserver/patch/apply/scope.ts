import { FieldSet, fieldToken } from './fieldpath.js';
import { isJsonObject, type JsonObject } from '../strategic/json.js';

/**
 * Metadata the server owns. Like the real field manager (stripMeta) these are
 * never tracked, and an apply configuration cannot set them.
 */
const SERVER_METADATA = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
] as const;

/** Identity fields: merged from the configuration, but owned by nobody. */
const IDENTITY_METADATA = ['name', 'namespace'] as const;

export interface Scope {
  /** Main-resource write of a kind with a status subresource: status is not this request's business. */
  readonly ignoreStatus: boolean;
  /** Write through the /status subresource: only status is. */
  readonly statusOnly: boolean;
  /** Other top-level fields the kind's strategy resets on this write (its GetResetFields): never owned. */
  readonly resetRoots?: readonly string[];
}

/** An apply configuration with server-owned metadata (and out-of-scope parts) removed. */
export function configInScope(config: JsonObject, scope: Scope): JsonObject {
  const out: JsonObject = { ...config };
  if (isJsonObject(out.metadata)) {
    const meta: JsonObject = { ...out.metadata };
    for (const k of SERVER_METADATA) delete meta[k];
    out.metadata = meta;
  }
  return restrict(out, scope);
}

/** The part of an object whose fields are tracked in managedFields. */
export function trackedPart(obj: JsonObject | undefined, scope: Scope): JsonObject | undefined {
  if (!obj) return undefined;
  const out: JsonObject = { ...obj };
  delete out.apiVersion;
  delete out.kind;
  if (isJsonObject(out.metadata)) {
    const meta: JsonObject = { ...out.metadata };
    for (const k of [...SERVER_METADATA, ...IDENTITY_METADATA]) delete meta[k];
    if (Object.keys(meta).length > 0) out.metadata = meta;
    else delete out.metadata;
  }
  return restrict(out, scope);
}

function restrict(obj: JsonObject, scope: Scope): JsonObject {
  if (scope.resetRoots?.length) {
    const out: JsonObject = { ...obj };
    for (const k of scope.resetRoots) delete out[k];
    return restrict(out, { ...scope, resetRoots: [] });
  }
  if (scope.statusOnly) {
    const { status } = obj;
    return status === undefined ? {} : { status };
  }
  if (scope.ignoreStatus) {
    const { status: _ignored, ...rest } = obj;
    return rest;
  }
  return obj;
}

/**
 * `metadata` itself is never owned, only fields inside it: an Update that
 * creates the object would otherwise claim `f:metadata: {".": {}}`.
 */
export function withoutUntrackedRoots(set: FieldSet): FieldSet {
  const roots = new FieldSet();
  for (const name of ['metadata', 'apiVersion', 'kind']) roots.insert([fieldToken(name)]);
  return set.difference(roots);
}
