import { ApiError } from '../http/status.js';
import { metadataOf } from '../objects/meta.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { StoreEvent } from '../storage/index.js';

const DEFAULT = 'default';
const isCore = (t: ResourceType, kind: string): boolean => t.group === '' && t.kind === kind;

/**
 * A `default` ServiceAccount in every active namespace, as kube-controller-manager's serviceaccounts
 * controller keeps (pkg/controller/serviceaccount/serviceaccounts_controller.go): made when a namespace is
 * created (before its create is answered, so a Pod created next passes the ServiceAccount admission plugin),
 * for every namespace already stored at start, and again when it is deleted. A real kube-controller-manager
 * beside it finds it there (its create meets AlreadyExists, which it ignores). Off (ApiServerOptions
 * defaultServiceAccounts false) where the reference is a kube-apiserver without one (test/fidelity).
 */
export class DefaultServiceAccounts {
  private readonly namespaces: ResourceType;
  private readonly accounts: ResourceType;

  constructor(
    registry: ResourceRegistry,
    private readonly objects: ObjectStore,
  ) {
    this.namespaces = registry.builtin('', 'v1', 'namespaces');
    this.accounts = registry.builtin('', 'v1', 'serviceaccounts');
  }

  backfill(): void {
    for (const text of this.objects.list(this.namespaces, undefined).items) {
      this.ensure(JSON.parse(text) as JsonObject);
    }
  }

  readonly onWrite = (t: ResourceType, e: StoreEvent, obj: JsonObject): void => {
    if (isCore(t, 'Namespace') && e.type === 'create') this.ensure(obj);
    else if (isCore(t, 'ServiceAccount') && e.type === 'delete' && metadataOf(obj).name === DEFAULT) {
      const stored = this.objects.getStored(this.namespaces, undefined, String(metadataOf(obj).namespace ?? ''));
      if (stored) this.ensure(JSON.parse(stored.value) as JsonObject);
    }
  };

  private ensure(ns: JsonObject): void {
    const meta = metadataOf(ns);
    const namespace = String(meta.name ?? '');
    if (!namespace || meta.deletionTimestamp !== undefined) return;
    if (this.objects.getStored(this.accounts, namespace, DEFAULT)) return;
    const sa: JsonObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT, namespace } };
    try {
      this.objects.create(this.accounts, namespace, sa, { fieldManager: 'kube-controller-manager' });
    } catch (e) {
      // Made meanwhile by another writer, or the namespace is already going: as the controller, nothing to do.
      if (!(e instanceof ApiError)) throw e;
    }
  }
}
