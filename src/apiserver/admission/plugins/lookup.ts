import type { ObjectStore } from '../../objects/object-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { JsonObject, JsonValue, ResourceType } from '../../registry/types.js';

export const isMap = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const maps = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isMap) : []);
export const mapAt = (obj: JsonObject, key: string): JsonObject => {
  const v = obj[key];
  return isMap(v) ? v : {};
};

/** Reads of the objects a plugin consults, as its listers would. */
export class Lookup {
  constructor(
    private readonly objects: ObjectStore,
    private readonly registry: ResourceRegistry,
  ) {}

  type(group: string, version: string, plural: string): ResourceType {
    return this.registry.builtin(group, version, plural);
  }

  get(t: ResourceType, namespace: string | undefined, name: string): JsonObject | undefined {
    const s = this.objects.getStored(t, namespace, name);
    return s ? this.objects.get(t, namespace, name) : undefined;
  }

  list(t: ResourceType, namespace: string | undefined): JsonObject[] {
    return this.objects.list(t, namespace).items.map((text) => JSON.parse(text) as JsonObject);
  }

  get store(): ObjectStore {
    return this.objects;
  }
}
