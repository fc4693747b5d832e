import { keepGoing } from '../../log/keep-going.js';
import { metadataOf } from '../objects/meta.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { StoreEvent } from '../storage/index.js';

const MANAGED_BY = 'ipallocator.k8s.io';

/**
 * The Service ClusterIP allocator's own records, as kube-apiserver keeps them since the ServiceCIDR
 * allocator (pkg/registry/core/service/ipallocator): one networking.k8s.io/v1 IPAddress per allocated
 * cluster IP, named by the address, its parentRef the Service; gone with the Service. Written just after
 * the Service's own write (a write listener must not write), so a reader may see the Service first.
 */
export class IpAddressRecords {
  private pending: Array<() => void> = [];
  private scheduled = false;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly objects: ObjectStore,
  ) {}

  readonly onWrite = (t: ResourceType, e: StoreEvent, obj: JsonObject): void => {
    if (t.custom || t.group !== '' || t.kind !== 'Service') return;
    const before = e.prevValue ? clusterIPsOf(JSON.parse(e.prevValue) as JsonObject) : [];
    const after = e.type === 'delete' ? [] : clusterIPsOf(obj);
    const meta = metadataOf(obj);
    const parent = { namespace: String(meta.namespace ?? ''), name: String(meta.name ?? '') };
    const gone = before.filter((ip) => !after.includes(ip));
    const added = after.filter((ip) => !before.includes(ip));
    if (!gone.length && !added.length) return;
    this.pending.push(() => this.apply(parent, gone, added));
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (let w = this.pending.shift(); w; w = this.pending.shift())
        keepGoing('ip-address-records', this.objects.onFault, w);
    });
  };

  /** Records for Services stored before this server kept them (an older data directory). */
  backfill(): void {
    const services = this.type('', 'services');
    for (const text of this.objects.list(services, undefined).items) {
      const svc = JSON.parse(text) as JsonObject;
      const meta = metadataOf(svc);
      this.apply({ namespace: String(meta.namespace ?? ''), name: String(meta.name ?? '') }, [], clusterIPsOf(svc));
    }
  }

  private type(group: string, plural: string): ResourceType {
    return this.registry.builtin(group, 'v1', plural);
  }

  private apply(parent: { namespace: string; name: string }, gone: string[], added: string[]): void {
    const ips = this.type('networking.k8s.io', 'ipaddresses');
    for (const ip of gone) {
      const stored = this.objects.getStored(ips, undefined, ip);
      if (stored && sameParent(JSON.parse(stored.value) as JsonObject, parent)) this.objects.delete(ips, undefined, ip);
    }
    for (const ip of added) {
      if (this.objects.getStored(ips, undefined, ip)) continue;
      const family = ip.includes(':') ? 'IPv6' : 'IPv4';
      this.objects.create(
        ips,
        undefined,
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'IPAddress',
          metadata: {
            name: ip,
            labels: { 'ipaddress.kubernetes.io/ip-family': family, 'ipaddress.kubernetes.io/managed-by': MANAGED_BY },
          },
          spec: { parentRef: { group: '', resource: 'services', namespace: parent.namespace, name: parent.name } },
        },
        { fieldManager: 'kube-apiserver' },
      );
    }
  }
}

function clusterIPsOf(svc: JsonObject): string[] {
  const spec = (svc.spec ?? {}) as JsonObject;
  const list = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP];
  return list.filter((ip): ip is string => typeof ip === 'string' && ip !== '' && ip !== 'None');
}

function sameParent(record: JsonObject, parent: { namespace: string; name: string }): boolean {
  const ref = ((record.spec ?? {}) as JsonObject).parentRef as JsonObject | undefined;
  return ref?.namespace === parent.namespace && ref.name === parent.name;
}
