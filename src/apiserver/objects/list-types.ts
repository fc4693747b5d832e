import { builtinListType, schemaListType, type ListTypeResolver } from '../patch/apply/index.js';
import type { ResourceType } from '../registry/types.js';

const cache = new WeakMap<ResourceType, ListTypeResolver>();

/** How server-side apply merges each list of a resource: CRD schema markers, or the built-in merge keys. */
export function listTypeFor(t: ResourceType): ListTypeResolver {
  let r = cache.get(t);
  if (!r) {
    r = t.custom
      ? schemaListType(t.schema ?? {})
      : builtinListType({ group: t.group, version: t.version, kind: t.kind });
    cache.set(t, r);
  }
  return r;
}
