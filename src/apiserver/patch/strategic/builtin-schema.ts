import type { JsonPrimitive } from './json.js';
import { openApiPatchSchema } from './openapi-patch-schema.js';

/**
 * Patch metadata of one field of a built-in kind: the `patchStrategy` /
 * `patchMergeKey` struct tags (strategic merge patch) and the `+listType` /
 * `+listMapKey` / `+structType` markers (server-side apply) from k8s.io/api.
 * Fields that are absent here are plain maps (merged) or atomic lists (replaced),
 * which is the default for both engines, so only the exceptions are listed.
 */
export interface FieldSchema {
  /** SMP `patchMergeKey`: list of objects merged element-wise by this key. */
  readonly mergeKey?: string;
  /** SMP `patchStrategy:"merge"` on a list of scalars (set union); SSA `listType=set`. */
  readonly mergeScalars?: true;
  /** SMP `patchStrategy:"replace"` on an object: the patch value replaces it wholesale. */
  readonly replaceMap?: true;
  /** SSA `+listMapKey`s, when they differ from `[mergeKey]` or the list has no SMP key. */
  readonly mapKeys?: readonly string[];
  /** Defaults the real server fills into missing key fields before SSA sees them. */
  readonly keyDefaults?: Readonly<Record<string, JsonPrimitive>>;
  /**
   * SSA's `+listType` when it is not a map: `set` or `atomic` (a list without a marker is atomic). When
   * absent (the hand-written ObjectMeta rules), mapKeys, mergeKey and mergeScalars decide.
   */
  readonly applyList?: 'set' | 'atomic';
  /** `+structType=atomic` / `+mapType=atomic`: SSA owns the whole object as one leaf. */
  readonly atomicMap?: true;
  /** Fields of this object, or of each element when this is a list of objects. */
  readonly fields?: Readonly<Record<string, FieldSchema>>;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/**
 * Every object's metadata, built-in or custom, follows ObjectMeta's tags (finalizers a set, owner
 * references keyed by uid), whatever a CRD's schema says about it.
 */
const objectMeta: FieldSchema = {
  fields: {
    finalizers: { mergeScalars: true },
    ownerReferences: { mergeKey: 'uid' },
  },
};

/**
 * Groups compiled into kube-apiserver. Only these accept
 * `application/strategic-merge-patch+json`; any other group is a custom
 * resource and gets 415. Note `gateway.networking.k8s.io` and friends are CRD
 * groups, so this must be an exact list, not a `*.k8s.io` suffix match.
 */
const BUILTIN_GROUPS: ReadonlySet<string> = new Set([
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'extensions',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

export function supportsStrategicMerge(gvk: GroupVersionKind): boolean {
  return BUILTIN_GROUPS.has(gvk.group);
}

/** Every object's metadata, built-in or custom, follows ObjectMeta's tags. */
export const OBJECT_META_SCHEMA: FieldSchema = objectMeta;

const roots = new Map<string, FieldSchema>();

/**
 * Root patch metadata for a built-in kind (openapi-patch-schema.ts, from its vendored OpenAPI), or
 * undefined for custom resources. A built-in kind without a vendored schema still gets ObjectMeta's
 * finalizers/ownerReferences.
 */
export function builtinSchema(gvk: GroupVersionKind): FieldSchema | undefined {
  if (!supportsStrategicMerge(gvk)) return undefined;
  const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
  let root = roots.get(key);
  if (!root) roots.set(key, (root = { fields: { ...openApiPatchSchema(gvk)?.fields, metadata: objectMeta } }));
  return root;
}

/** Walks the schema by field names; list elements share their list's node. */
export function schemaAt(root: FieldSchema | undefined, path: readonly string[]): FieldSchema | undefined {
  let node = root;
  for (const name of path) {
    node = node?.fields?.[name];
    if (!node) return undefined;
  }
  return node;
}
