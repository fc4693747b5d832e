import { randomInt } from 'node:crypto';
import type { Admission, ObjectStore, Operation } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';

/**
 * The ServiceAccount admission plugin's token volume (plugin/pkg/admission/serviceaccount/
 * admission.go, mountServiceAccountToken and TokenVolumeSource): a new Pod whose account and
 * spec do not opt out (automountServiceAccountToken false) gets a projected `kube-api-access-<5>`
 * volume (a bound token, the namespace's kube-root-ca.crt, its namespace) and every container and
 * init container a read-only mount of it at /var/run/secrets/kubernetes.io/serviceaccount, unless
 * one already mounts there. Mirror pods are left alone. Not done: refusing a Pod whose
 * ServiceAccount does not exist (namespaces here do not all have their `default` account yet).
 * A storage step, so what it adds is owned by no field manager; it is idempotent, as the
 * admission pass of src/apiserver/admission/index.ts stores its dry run's object.
 */
const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const PREFIX = 'kube-api-access-';
// k8s.io/apimachinery/pkg/util/rand: no vowels, no confusable digits.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

const isMap = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const maps = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isMap) : []);

export function tokenVolume(name: string): JsonObject {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}

export class ServiceAccountToken implements Admission {
  constructor(
    private readonly objects: ObjectStore,
    private readonly registry: ResourceRegistry,
  ) {}

  admit(t: ResourceType, op: Operation, obj: JsonObject): void {
    if (t.group || t.kind !== 'Pod' || op !== 'CREATE') return;
    const meta = isMap(obj.metadata) ? obj.metadata : {};
    if (isMap(meta.annotations) && meta.annotations['kubernetes.io/config.mirror'] !== undefined) return;
    const spec = isMap(obj.spec) ? obj.spec : undefined;
    if (!spec || spec.automountServiceAccountToken === false) return;
    if (this.accountOptsOut(String(meta.namespace ?? ''), String(spec.serviceAccountName ?? 'default'), spec)) return;
    const volumes = maps(spec.volumes);
    const existing = volumes.find((v) => typeof v.name === 'string' && v.name.startsWith(PREFIX) && isMap(v.projected));
    const name = typeof existing?.name === 'string' ? existing.name : PREFIX + randomSuffix();
    if (!existing) spec.volumes = [...volumes, tokenVolume(name)];
    for (const c of [...maps(spec.initContainers), ...maps(spec.containers)]) {
      const mounts = maps(c.volumeMounts);
      if (mounts.some((m) => m.mountPath === MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name, readOnly: true, mountPath: MOUNT_PATH }];
    }
  }

  /** The pod's own setting wins; without one, the account's automountServiceAccountToken false. */
  private accountOptsOut(namespace: string, account: string, spec: JsonObject): boolean {
    if (spec.automountServiceAccountToken === true) return false;
    const t = this.registry.lookup('', 'v1', 'serviceaccounts');
    const s = t && namespace ? this.objects.getStored(t, namespace, account) : undefined;
    return s !== undefined && (JSON.parse(s.value) as JsonObject).automountServiceAccountToken === false;
  }
}

function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += ALPHANUMS[randomInt(ALPHANUMS.length)];
  return s;
}
