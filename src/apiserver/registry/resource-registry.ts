import { BUILTIN_TYPES } from './builtins.js';
import type { ResourceType } from './types.js';

export interface GroupVersions {
  group: string;
  versions: string[];
}

/**
 * Every resource the server currently serves: the built-ins plus whatever the stored CRDs define.
 * Discovery and routing both read from here, so a CRD is served the moment it is registered.
 */
export class ResourceRegistry {
  private readonly byPath = new Map<string, ResourceType>();
  private readonly crdTypes = new Map<string, ResourceType[]>();
  private listeners: Array<() => void> = [];
  private generation = 0;

  constructor() {
    for (const t of BUILTIN_TYPES) this.byPath.set(pathKey(t.group, t.version, t.plural), t);
  }

  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byPath.get(pathKey(group, version, plural));
  }

  /** A built-in type, which is always served: the constructor adds every one, and no CRD can claim a built-in's group. */
  builtin(group: string, version: string, plural: string): ResourceType {
    const t = this.lookup(group, version, plural);
    // invariant: BUILTIN_TYPES are registered above and only CRD types are ever removed.
    if (!t) throw new Error(`invariant: ${group}/${version} ${plural} is a built-in`);
    return t;
  }

  /** Any served version of the kind, preferring `version`. */
  lookupKind(group: string, version: string, kind: string): ResourceType | undefined {
    let fallback: ResourceType | undefined;
    for (const t of this.byPath.values()) {
      if (t.group !== group || t.kind !== kind) continue;
      if (t.version === version) return t;
      fallback ??= t;
    }
    return fallback;
  }

  all(): ResourceType[] {
    return [...this.byPath.values()];
  }

  /** Groups in discovery order: built-ins first, then CRD groups; each group's preferred version first. */
  groups(): GroupVersions[] {
    const out = new Map<string, string[]>();
    for (const t of this.byPath.values()) {
      const versions = out.get(t.group) ?? [];
      if (!versions.includes(t.version)) versions.push(t.version);
      out.set(t.group, versions);
    }
    return [...out].map(([group, versions]) => ({ group, versions }));
  }

  resourcesIn(group: string, version: string): ResourceType[] {
    return this.all().filter((t) => t.group === group && t.version === version);
  }

  /** Replaces what one CRD serves (an empty list stops serving it). */
  setCustomTypes(crdName: string, types: ResourceType[]): void {
    for (const old of this.crdTypes.get(crdName) ?? []) this.byPath.delete(pathKey(old.group, old.version, old.plural));
    if (types.length) this.crdTypes.set(crdName, types);
    else this.crdTypes.delete(crdName);
    for (const t of types) this.byPath.set(pathKey(t.group, t.version, t.plural), t);
    this.generation++;
    for (const l of this.listeners) l();
  }

  /** Bumped on every CRD change; discovery and OpenAPI documents cache on it. */
  get version(): number {
    return this.generation;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}

function pathKey(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}
