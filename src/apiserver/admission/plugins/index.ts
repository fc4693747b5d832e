import type { Admission, ObjectStore, Operation, WriteOptions } from '../../objects/object-store.js';
import { metadataOf } from '../../objects/meta.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../../registry/types.js';
import { CertificateSubjectRestrictionPlugin } from './certificate-subject-restriction.js';
import { DefaultIngressClassPlugin } from './default-ingress-class.js';
import { DefaultStorageClassPlugin } from './default-storage-class.js';
import { DefaultTolerationSecondsPlugin } from './default-toleration-seconds.js';
import { LimitRangerPlugin } from './limit-ranger.js';
import { Lookup } from './lookup.js';
import { PersistentVolumeClaimResizePlugin } from './persistent-volume-claim-resize.js';
import { PodSecurityPlugin } from './pod-security.js';
import { PriorityPlugin } from './priority.js';
import { ResourceQuotaPlugin } from './resource-quota.js';
import { RuntimeClassPlugin } from './runtime-class.js';
import { StorageObjectInUseProtectionPlugin } from './storage-object-in-use-protection.js';
import { TaintNodesByConditionPlugin } from './taint-nodes-by-condition.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * kube-apiserver's default-on admission plugins, in its order (pkg/kubeapiserver/options/plugins.go,
 * AllOrderedPlugins): LimitRanger, TaintNodesByCondition, PodSecurity, Priority,
 * DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection,
 * PersistentVolumeClaimResize, RuntimeClass, CertificateSubjectRestriction, DefaultIngressClass
 * and, last, ResourceQuota.
 * Elsewhere, because they run at another point of the request: NamespaceLifecycle
 * (http/resource-handlers.ts, checkNamespaceOpen, before the store is asked), ServiceAccount
 * (admission/service-account-token.ts and defaults/admission-plugins.ts), the webhooks and
 * ValidatingAdmissionPolicy (admission/index.ts). Not done: CertificateApproval,
 * CertificateSigning and ClusterTrustBundleAttest, which check the requester's RBAC rights on signers.
 *
 * Two hooks of the object store run them: `before` (an admission step, before field validation)
 * runs each plugin's `admit`, so its refusals come first as Admit's do; `after` (a storage step,
 * after the field manager) runs every `mutate`, then every `validate`.
 */
export class BuiltinAdmissionPlugins {
  readonly plugins: BuiltinPlugin[];
  readonly before: Admission;
  readonly after: Admission;

  constructor(objects: ObjectStore, registry: ResourceRegistry) {
    const lookup = new Lookup(objects, registry);
    this.plugins = [
      new LimitRangerPlugin(lookup),
      new TaintNodesByConditionPlugin(),
      new PodSecurityPlugin(lookup),
      new PriorityPlugin(lookup),
      new DefaultTolerationSecondsPlugin(),
      new DefaultStorageClassPlugin(lookup),
      new StorageObjectInUseProtectionPlugin(),
      new PersistentVolumeClaimResizePlugin(lookup),
      new RuntimeClassPlugin(lookup),
      new CertificateSubjectRestrictionPlugin(),
      new DefaultIngressClassPlugin(lookup),
      new ResourceQuotaPlugin(lookup),
    ];
    this.before = {
      admit: (t, op, obj, old, opts) => {
        const a = attributes(t, op, obj, old, opts);
        for (const p of this.plugins) p.admit?.(a);
      },
    };
    this.after = {
      admit: (t, op, obj, old, opts) => {
        const a = attributes(t, op, obj, old, opts);
        for (const p of this.plugins) p.mutate?.(a);
        for (const p of this.plugins) p.validate?.(a, opts);
      },
    };
  }
}

function attributes(
  t: ResourceType,
  operation: Operation,
  object: JsonObject,
  oldObject: JsonObject | undefined,
  opts: WriteOptions,
): PluginAttributes {
  const meta = metadataOf(object);
  return {
    t,
    operation,
    namespace: t.namespaced ? String(meta.namespace ?? '') : '',
    name: typeof meta.name === 'string' ? meta.name : '',
    subresource: opts.subresource ?? '',
    object,
    oldObject,
    dryRun: opts.dryRun ?? false,
  };
}
