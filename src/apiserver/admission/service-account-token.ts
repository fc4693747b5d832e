import { randomInt } from 'node:crypto';
import { errors } from '../http/status.js';
import type { Admission, ObjectStore, Operation } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';

/**
 * The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount/admission.go, Admit and
 * Validate on create): a new Pod runs as its `spec.serviceAccountName` (`default` when unset, set by
 * defaults/admission-plugins.ts), which must exist in its namespace (else 403 `error looking up service
 * account ns/name: serviceaccount "name" not found`; the namespace's `default` one is kept by
 * controllers/default-service-accounts.ts, as kube-controller-manager's serviceaccounts controller does).
 * Unless the Pod or its account opts out (automountServiceAccountToken false) it gets a projected
 * `kube-api-access-<5>` volume (mountServiceAccountToken, TokenVolumeSource: a bound token, the namespace's
 * kube-root-ca.crt, its namespace) and every container and init container a read-only mount of it at
 * /var/run/secrets/kubernetes.io/serviceaccount, unless one already mounts there; a Pod without
 * imagePullSecrets gets its account's. A mirror pod is only checked: it may name no account, no secret
 * and no token projection. Not done: the mountable-secrets annotation (enforce-mountable-secrets).
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
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
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
    const spec = isMap(obj.spec) ? obj.spec : undefined;
    if (!spec) return;
    const namespace = String(meta.namespace ?? '');
    const refuse = (why: string) => errors.forbidden(t, String(meta.name ?? ''), why);
    if (isMap(meta.annotations) && meta.annotations['kubernetes.io/config.mirror'] !== undefined) {
      const why = mirrorPodRefusal(spec);
      if (why) throw refuse(why);
      return;
    }
    const name = typeof spec.serviceAccountName === 'string' ? spec.serviceAccountName : '';
    if (!name) throw refuse(`no service account specified for pod ${namespace}/${String(meta.name ?? '')}`);
    const account = this.account(namespace, name);
    if (!account) {
      throw refuse(`error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`);
    }
    if (shouldAutomount(account, spec)) mountToken(spec);
    const pullSecrets = maps(account.imagePullSecrets);
    if (!maps(spec.imagePullSecrets).length && pullSecrets.length) {
      spec.imagePullSecrets = pullSecrets.map((s) => ({ name: s.name ?? '' }));
    }
  }

  private account(namespace: string, name: string): JsonObject | undefined {
    const t = this.registry.lookup('', 'v1', 'serviceaccounts');
    const s = t && namespace ? this.objects.getStored(t, namespace, name) : undefined;
    return s ? (JSON.parse(s.value) as JsonObject) : undefined;
  }
}

/** The Pod's own setting wins; then the account's; else true. */
function shouldAutomount(account: JsonObject, spec: JsonObject): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof account.automountServiceAccountToken === 'boolean') return account.automountServiceAccountToken;
  return true;
}

function mountToken(spec: JsonObject): void {
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

/** Validate's refusals of a mirror pod (VisitPodSecretNames: pull secrets, secret volumes and env). */
function mirrorPodRefusal(spec: JsonObject): string | undefined {
  const account = spec.serviceAccountName ?? spec.serviceAccount;
  if (typeof account === 'string' && account) return 'a mirror pod may not reference service accounts';
  const volumes = maps(spec.volumes);
  const containers = [...maps(spec.initContainers), ...maps(spec.containers), ...maps(spec.ephemeralContainers)];
  const envSecret = containers.some(
    (c) =>
      maps(c.env).some((e) => isMap(e.valueFrom) && isMap(e.valueFrom.secretKeyRef)) ||
      maps(c.envFrom).some((e) => isMap(e.secretRef)),
  );
  const projectedSecret = volumes.some(
    (v) => isMap(v.projected) && maps(v.projected.sources).some((s) => isMap(s.secret)),
  );
  const volumeSecret = volumes.some((v) =>
    ['secret', 'azureFile', 'cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos', 'csi'].some(
      (k) => isMap(v[k]) && (k === 'secret' || k === 'azureFile' || isMap(v[k].secretRef)),
    ),
  );
  if (maps(spec.imagePullSecrets).length || envSecret || projectedSecret || volumeSecret) {
    return 'a mirror pod may not reference secrets';
  }
  const token = volumes.some(
    (v) => isMap(v.projected) && maps(v.projected.sources).some((s) => isMap(s.serviceAccountToken)),
  );
  return token ? 'a mirror pod may not use ServiceAccountToken volume projections' : undefined;
}

function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += ALPHANUMS[randomInt(ALPHANUMS.length)];
  return s;
}
