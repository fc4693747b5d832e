import type { Admission, Operation } from '../objects/object-store.js';
import { nowTimestamp } from '../objects/meta.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import { prepareNewJob } from './batch-v1.js';
import { objectAt } from './fields.js';

const isMap = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What kube-apiserver's admission plugins that are on by default (and its strategies'
 * PrepareForCreate) add to a new object, for the kinds served here. Only on create: these plugins
 * leave updates alone. A storage step (ObjectStore.addStorageStep): both run after the field
 * manager there, so what they add is owned by nobody. The other default plugins are in
 * admission/plugins/, one per file.
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
    // plugin/pkg/admission/serviceaccount: the pod runs as the namespace's `default` account (a mirror
    // pod names none; admission/service-account-token.ts refuses one that does).
    const meta = objectAt(obj, 'metadata');
    const annotations = meta.annotations;
    const mirror = isMap(annotations) && annotations['kubernetes.io/config.mirror'] !== undefined;
    if (!s.serviceAccountName && !mirror) s.serviceAccountName = (s.serviceAccount as JsonValue) || 'default';
    if (s.serviceAccountName !== undefined) s.serviceAccount = s.serviceAccountName;
  } else if (kind === 'PersistentVolume') {
    // persistentvolumeStrategy.PrepareForCreate stamps the phase's transition time.
    objectAt(obj, 'status').lastPhaseTransitionTime ??= nowTimestamp();
  } else if (kind === 'Job') {
    prepareNewJob(obj);
  } else if (kind === 'Namespace') {
    // namespaceStrategy.PrepareForCreate: the `kubernetes` finalizer the namespace controller removes.
    const s = spec();
    const finalizers = Array.isArray(s.finalizers) ? (s.finalizers as JsonValue[]) : [];
    if (!finalizers.includes('kubernetes')) s.finalizers = [...finalizers, 'kubernetes'];
  }
}
