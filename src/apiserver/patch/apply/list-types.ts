import {
  builtinSchema,
  OBJECT_META_SCHEMA,
  schemaAt,
  type FieldSchema,
  type GroupVersionKind,
} from '../strategic/builtin-schema.js';
import { isJsonObject, isPrimitive, type JsonObject, type JsonPrimitive } from '../strategic/json.js';

export interface MapListType {
  readonly mapKeys: readonly string[];
  /** Values assumed for key fields an element omits (the real server defaults them first). */
  readonly keyDefaults?: Readonly<Record<string, JsonPrimitive>>;
}

/** `x-kubernetes-list-type`: atomic (one leaf), set (scalars by value), map (objects by key fields). */
export type ListType = 'atomic' | 'set' | MapListType;
export type MapType = 'atomic' | 'granular';

/**
 * Tells the apply engine how to treat the list at `path`. Paths are field names
 * from the object root; list elements add no segment, so a container's image is
 * `['spec','template','spec','containers','image']`. The optional `mapType`
 * marks objects owned as a whole (`x-kubernetes-map-type: atomic`, label selectors).
 */
export interface ListTypeResolver {
  (path: readonly string[]): ListType;
  mapType?: (path: readonly string[]) => MapType;
}

export function isMapList(t: ListType): t is MapListType {
  return typeof t === 'object';
}

function fromFieldSchema(node: FieldSchema | undefined): ListType {
  if (!node) return 'atomic';
  if (node.applyList) return node.applyList;
  const mapKeys = node.mapKeys ?? (node.mergeKey ? [node.mergeKey] : undefined);
  if (mapKeys) return node.keyDefaults ? { mapKeys, keyDefaults: node.keyDefaults } : { mapKeys };
  return node.mergeScalars ? 'set' : 'atomic';
}

function resolverFromTable(root: FieldSchema): ListTypeResolver {
  const resolve = (path: readonly string[]): ListType => fromFieldSchema(schemaAt(root, path));
  resolve.mapType = (path: readonly string[]): MapType => (schemaAt(root, path)?.atomicMap ? 'atomic' : 'granular');
  return resolve;
}

/** Merge keys of built-in kinds, from the same table strategic merge patch uses. */
export function builtinListType(gvk: GroupVersionKind): ListTypeResolver {
  return resolverFromTable(builtinSchema(gvk) ?? { fields: { metadata: OBJECT_META_SCHEMA } });
}

const metadataResolver = resolverFromTable({ fields: { metadata: OBJECT_META_SCHEMA } });

/**
 * Reads `x-kubernetes-list-type` / `x-kubernetes-list-map-keys` /
 * `x-kubernetes-map-type` from a CRD's openAPIV3Schema. Unmarked lists are
 * atomic, as in the real server. `metadata` always follows ObjectMeta, whatever
 * the CRD says about it.
 */
export function schemaListType(openAPIV3Schema: unknown): ListTypeResolver {
  const root = isJsonObject(openAPIV3Schema) ? openAPIV3Schema : {};
  const resolve = (path: readonly string[]): ListType => {
    if (path[0] === 'metadata') return metadataResolver(path);
    return listTypeOf(schemaNodeAt(root, path));
  };
  resolve.mapType = (path: readonly string[]): MapType => {
    if (path[0] === 'metadata') return metadataResolver.mapType!(path);
    return schemaNodeAt(root, path)?.['x-kubernetes-map-type'] === 'atomic' ? 'atomic' : 'granular';
  };
  return resolve;
}

function schemaNodeAt(root: JsonObject, path: readonly string[]): JsonObject | undefined {
  let node: JsonObject | undefined = root;
  for (const name of path) {
    // Paths skip list elements, so step through `items` implicitly.
    while (node && isJsonObject(node.items)) node = node.items;
    if (!node) return undefined;
    const props: JsonObject | undefined = isJsonObject(node.properties) ? node.properties : undefined;
    const next: unknown = props?.[name] ?? node.additionalProperties;
    node = isJsonObject(next) ? next : undefined;
  }
  return node;
}

function listTypeOf(node: JsonObject | undefined): ListType {
  const kind = node?.['x-kubernetes-list-type'];
  if (kind === 'set') return 'set';
  if (kind !== 'map') return 'atomic';
  const keys = node?.['x-kubernetes-list-map-keys'];
  const mapKeys = Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  if (mapKeys.length === 0) return 'atomic';
  const items = isJsonObject(node?.items) ? node.items : undefined;
  const props = items && isJsonObject(items.properties) ? items.properties : {};
  const keyDefaults: Record<string, JsonPrimitive> = {};
  for (const k of mapKeys) {
    const prop = props[k];
    if (isJsonObject(prop) && 'default' in prop && isPrimitive(prop.default)) keyDefaults[k] = prop.default;
  }
  return Object.keys(keyDefaults).length > 0 ? { mapKeys, keyDefaults } : { mapKeys };
}
