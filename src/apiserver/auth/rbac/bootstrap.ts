import { clone, metadataOf } from '../../objects/meta.js';
import type { ObjectStore } from '../../objects/object-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { BOOTSTRAP_POLICY } from './bootstrap-policy.js';
import { RBAC_GROUP } from './policy-index.js';

/**
 * Creates the roles and bindings a real cluster bootstraps (cluster-admin, admin, edit, view,
 * system:discovery, system:basic-user, system:public-info-viewer, system:masters → cluster-admin,
 * the controllers' roles) when they are missing. Like kube-apiserver's storage_rbac post-start
 * hook it never overwrites them, so an edited policy stays edited (its autoupdate reconcile is not done).
 */
export function ensureBootstrapPolicy(registry: ResourceRegistry, objects: ObjectStore): void {
  for (const obj of BOOTSTRAP_POLICY) {
    const t = registry.lookup(RBAC_GROUP, 'v1', `${String(obj.kind).toLowerCase()}s`)!;
    const meta = metadataOf(obj);
    const ns = typeof meta.namespace === 'string' ? meta.namespace : undefined;
    if (ns) ensureNamespace(registry, objects, ns);
    if (!objects.getStored(t, ns, String(meta.name))) objects.create(t, ns, clone(obj));
  }
}

function ensureNamespace(registry: ResourceRegistry, objects: ObjectStore, name: string): void {
  const t = registry.lookup('', 'v1', 'namespaces')!;
  if (!objects.getStored(t, undefined, name))
    objects.create(t, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}
