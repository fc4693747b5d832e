import type { Admission, Operation } from '../objects/object-store.js';
import { nowTimestamp } from '../objects/meta.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import { prepareNewJob } from './batch-v1.js';
import { objectAt } from './fields.js';

/**
 * What kube-apiserver's admission plugins that are on by default (and its strategies'
 * PrepareForCreate) add to a new object, for the kinds served here. Only on create: these plugins
 * leave updates alone. A storage step (ObjectStore.addStorageStep): both run after the field
 * manager there, so what they add is owned by nobody. The plugins that read other objects
 * (LimitRanger, Priority, RuntimeClass, ResourceQuota) are in admission/plugins/.
 */
export class DefaultAdmissionPlugins implements Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject): void {
    if (!t.custom && op === 'CREATE') admitNew(t.kind, obj);
  }
}

function admitNew(kind: string, obj: JsonObject): void {
  const spec = (): JsonObject => objectAt(obj, 'spec');
  if (kind === 'Pod') {
    const s = spec();
    // plugin/pkg/admission/serviceaccount: the pod runs as the namespace's `default` account.
    if (!s.serviceAccountName) s.serviceAccountName = (s.serviceAccount as JsonValue) || 'default';
    s.serviceAccount = s.serviceAccountName;
    defaultTolerationSeconds(s);
  } else if (kind === 'PersistentVolumeClaim') {
    addFinalizer(obj, 'kubernetes.io/pvc-protection');
  } else if (kind === 'PersistentVolume') {
    addFinalizer(obj, 'kubernetes.io/pv-protection');
    // persistentvolumeStrategy.PrepareForCreate stamps the phase's transition time.
    objectAt(obj, 'status').lastPhaseTransitionTime ??= nowTimestamp();
  } else if (kind === 'Node') {
    // plugin/pkg/admission/nodetaint (TaintNodesByCondition): a new node is not ready yet.
    const s = spec();
    const taints = Array.isArray(s.taints) ? (s.taints as JsonObject[]) : [];
    if (!taints.some((t) => t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoSchedule')) s.taints = [...taints, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }];
  } else if (kind === 'Job') {
    prepareNewJob(obj);
  } else if (kind === 'Namespace') {
    // namespaceStrategy.PrepareForCreate: the `kubernetes` finalizer the namespace controller removes.
    const s = spec();
    const finalizers = Array.isArray(s.finalizers) ? (s.finalizers as JsonValue[]) : [];
    if (!finalizers.includes('kubernetes')) s.finalizers = [...finalizers, 'kubernetes'];
  }
}

/** plugin/pkg/admission/defaulttolerationseconds: tolerate not-ready and unreachable nodes for 300 s. */
function defaultTolerationSeconds(spec: JsonObject): void {
  const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as JsonObject[]) : [];
  const added = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']
    .filter((key) => !tolerations.some((t) => (t.key === key || (t.operator === 'Exists' && !t.key)) && (!t.effect || t.effect === 'NoExecute')))
    .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }));
  if (added.length) spec.tolerations = [...tolerations, ...added];
}

function addFinalizer(obj: JsonObject, finalizer: string): void {
  const meta = objectAt(obj, 'metadata');
  const finalizers = Array.isArray(meta.finalizers) ? (meta.finalizers as JsonValue[]) : [];
  if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
}
