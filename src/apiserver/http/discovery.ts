import { createHash } from 'node:crypto';
import { hasScale } from './scale.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { ResourceType } from '../registry/types.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SUB_VERBS = ['get', 'patch', 'update'];
/** apiextensions-apiserver lists a custom resource's verbs in its own order. */
const CUSTOM_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** Legacy discovery documents (kubectl falls back to them; client-node needs /apis/{g}/{v}). */
export class Discovery {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly serverAddress: () => string,
  ) {}

  coreVersions(): object {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: this.serverAddress() }],
    };
  }

  groupList(): object {
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: this.registry
        .groups()
        .filter((g) => g.group !== '')
        .map((g) => this.groupOf(g.group, g.versions)),
    };
  }

  group(name: string): object | undefined {
    const g = this.registry.groups().find((x) => x.group === name && name !== '');
    return g ? { kind: 'APIGroup', apiVersion: 'v1', ...this.groupOf(g.group, g.versions) } : undefined;
  }

  private groupOf(group: string, versions: string[]): object {
    const gv = versions.map((version) => ({ groupVersion: `${group}/${version}`, version }));
    return { name: group, versions: gv, preferredVersion: gv[0] };
  }

  resourceList(group: string, version: string): object | undefined {
    const types = this.registry.resourcesIn(group, version);
    if (!types.length) return undefined;
    const resources: object[] = [];
    for (const t of types) {
      resources.push(resourceEntry(t));
      if (t.statusSubresource) {
        resources.push({
          name: `${t.plural}/status`,
          singularName: '',
          namespaced: t.namespaced,
          kind: t.kind,
          verbs: SUB_VERBS,
        });
      }
      if (hasScale(t))
        resources.push({
          name: `${t.plural}/scale`,
          singularName: '',
          namespaced: t.namespaced,
          group: 'autoscaling',
          version: 'v1',
          kind: 'Scale',
          verbs: SUB_VERBS,
        });
      for (const s of t.subresources ?? []) {
        const gv = s.group !== undefined ? { group: s.group, version: s.version ?? 'v1' } : {};
        resources.push({
          name: `${t.plural}/${s.name}`,
          singularName: '',
          namespaced: t.namespaced,
          ...gv,
          kind: s.kind,
          verbs: s.verbs,
        });
      }
    }
    // kube-apiserver lists a built-in group-version's resources (subresources included) by name; a
    // CRD's come as apiextensions-apiserver adds them: the resource, then status, then scale.
    if (!types.some((t) => t.custom))
      resources.sort((a, b) => ((a as { name: string }).name < (b as { name: string }).name ? -1 : 1));
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources,
    };
  }

  /** Whether the group is served at all (else its paths are no API: a version it lacks is the API's 404). */
  servesGroup(group: string): boolean {
    return group === '' || this.registry.groups().some((g) => g.group === group);
  }
}

/** Kinds kube-apiserver still stores in an older version than the one served here. */
const STORAGE_VERSIONS: Record<string, string> = { 'apiextensions.k8s.io/CustomResourceDefinition': 'v1beta1' };

/**
 * apiserver/pkg/endpoints/discovery.StorageVersionHash: the first 8 bytes of the SHA-256 of
 * `group/version/kind` of the storage version, base64. Served versions are stored as themselves here.
 */
function storageVersionHash(t: ResourceType): string {
  const version = STORAGE_VERSIONS[`${t.group}/${t.kind}`] ?? t.version;
  return createHash('sha256').update(`${t.group}/${version}/${t.kind}`).digest().subarray(0, 8).toString('base64');
}

function resourceEntry(t: ResourceType): object {
  const entry: Record<string, unknown> = {
    name: t.plural,
    singularName: t.singular,
    namespaced: t.namespaced,
    kind: t.kind,
    verbs: t.verbs ?? (t.custom ? CUSTOM_VERBS : VERBS),
  };
  if (t.shortNames.length) entry.shortNames = t.shortNames;
  if (t.categories.length) entry.categories = t.categories;
  // What is not stored (reviews, bindings, componentstatuses: verbs of their own) has no storage version.
  if (!t.verbs || t.verbs.includes('watch')) entry.storageVersionHash = storageVersionHash(t);
  return entry;
}
