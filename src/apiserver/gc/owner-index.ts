import type { JsonObject } from '../registry/types.js';
import { isObject, metadataOf } from '../objects/meta.js';

/** Where a dependent lives: enough to find its resource type and delete or patch it. */
export interface ObjectRef {
  key: string;
  group: string;
  plural: string;
  namespace: string | undefined;
  name: string;
}

/** ownerReference uid → dependents, kept current from the write stream so GC never scans storage. */
export class OwnerIndex {
  private readonly byOwner = new Map<string, Map<string, ObjectRef>>();
  private readonly ownersOf = new Map<string, string[]>();

  update(ref: ObjectRef, obj: JsonObject | undefined): void {
    for (const uid of this.ownersOf.get(ref.key) ?? []) {
      const deps = this.byOwner.get(uid);
      deps?.delete(ref.key);
      if (deps && !deps.size) this.byOwner.delete(uid);
    }
    this.ownersOf.delete(ref.key);
    if (!obj) return;
    const owners = ownerUids(obj);
    if (!owners.length) return;
    this.ownersOf.set(ref.key, owners);
    for (const uid of owners) {
      let deps = this.byOwner.get(uid);
      if (!deps) this.byOwner.set(uid, (deps = new Map()));
      deps.set(ref.key, ref);
    }
  }

  dependents(ownerUid: string): ObjectRef[] {
    return [...(this.byOwner.get(ownerUid)?.values() ?? [])];
  }
}

export function ownerUids(obj: JsonObject): string[] {
  const refs = metadataOf(obj).ownerReferences;
  return Array.isArray(refs)
    ? refs
        .filter(isObject)
        .map((r) => String(r.uid))
        .filter(Boolean)
    : [];
}

/** `/registry/apps/deployments/ns/name` → its parts (cluster-scoped keys have no namespace segment). */
export function refFromKey(key: string): ObjectRef {
  const parts = key.split('/');
  const [, , group, plural] = parts;
  const rest = parts.slice(4);
  return {
    key,
    group: group === 'core' ? '' : group!,
    plural: plural!,
    namespace: rest.length === 2 ? rest[0] : undefined,
    name: rest[rest.length - 1]!,
  };
}
