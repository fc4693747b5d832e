import {
  type KubeClient,
  isNotFound,
  type Condition,
  type KubeObject,
  refOf,
  removeCondition,
  setCondition,
} from '../kube/index.js';
import { FLOW_GENERATION_ANNOTATION } from '../api/rollout-names.js';

/** What one reconcile concluded about the watched object, as FlowOps writes it into `.status`. */
export interface ResourceVerdict {
  ready: boolean;
  reason: string;
  message: string;
  /** Set: `Stalled=True` with this reason (a terminal failure). Absent: no Stalled condition. */
  stalled?: { reason: string; message: string };
  /** The Flow's `status:` projection, written beside the conditions. */
  fields?: Record<string, unknown>;
}

/** Custom resources, whose status FlowOps may shape; built-in kinds only get conditions (their controllers own the rest). */
const isCustom = (apiVersion: string): boolean => apiVersion.includes('.') && !apiVersion.endsWith('.k8s.io/v1');

/**
 * Writes the verdict onto the watched resource: through /status when the kind has that
 * subresource, into the object itself for a custom resource without one, and not at all for
 * built-ins that have no status (a ConfigMap). Nothing is sent when nothing would change. True when
 * the Ready condition's status flipped (the caller records an Event on that transition).
 */
export async function writeResourceStatus(
  kube: KubeClient,
  obj: KubeObject,
  v: ResourceVerdict,
  fieldManager: string,
): Promise<boolean> {
  return (await writeOwnerReport(kube, obj, {}, v, fieldManager)).transitioned;
}

/** What one report changes on the watched object; nothing sent when `wrote` is false. */
export interface ReportWrite {
  /** Any request was sent. */
  wrote: boolean;
  /** The Ready condition's status flipped (the caller records an Event on that transition). */
  transitioned: boolean;
}

/**
 * A run's whole report on the watched object, as Flux summarises and patches once at the end: its
 * own annotations (`values`: a string sets, null removes) and the verdict in `.status`. One merge
 * patch where the status lives in the object itself (a custom resource without a status
 * subresource); else at most one metadata patch and one /status patch (the status subresource
 * ignores metadata). Nothing is sent for what would not change.
 */
export async function writeOwnerReport(
  kube: KubeClient,
  obj: KubeObject,
  values: Record<string, string | null>,
  v: ResourceVerdict,
  fieldManager: string,
): Promise<ReportWrite> {
  const current = obj.metadata.annotations ?? {};
  const changed = Object.entries(values).filter(([k, val]) => (current[k] ?? null) !== val);
  const annotations = changed.length ? Object.fromEntries(changed) : undefined;
  const plan = planStatus(obj, v);
  const withStatus = plan.patch ? await kube.hasStatus(obj.apiVersion, obj.kind) : false;
  const status = plan.patch && (withStatus || isCustom(obj.apiVersion)) ? plan.patch : undefined;
  if (!annotations && !status) return { wrote: false, transitioned: false };
  const ref = refOf(obj);
  try {
    if (status && !withStatus) {
      const body = { ...(annotations ? { metadata: { annotations } } : {}), status };
      await kube.sendPatch(ref, body, 'merge', { fieldManager });
    } else {
      // A new flowops.io/flow-generation goes after the status: whoever sees it sees that
      // generation's verdict (the rollout gates each stage on it).
      const statusFirst = annotations !== undefined && FLOW_GENERATION_ANNOTATION in annotations;
      if (status && statusFirst)
        await kube.sendPatch(ref, { status }, 'merge', { fieldManager, subresource: 'status' });
      if (annotations) await kube.sendPatch(ref, { metadata: { annotations } }, 'merge', { fieldManager });
      if (status && !statusFirst)
        await kube.sendPatch(ref, { status }, 'merge', { fieldManager, subresource: 'status' });
    }
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  return { wrote: true, transitioned: status !== undefined && plan.transitioned };
}

/** The status merge patch a verdict needs, undefined when the object already says it. */
interface StatusPlan {
  patch: Record<string, unknown> | undefined;
  transitioned: boolean;
}

function planStatus(obj: KubeObject, v: ResourceVerdict): StatusPlan {
  const status = (obj.status && typeof obj.status === 'object' ? obj.status : {}) as Record<string, unknown> & {
    conditions?: Condition[];
  };
  const g = obj.metadata.generation !== undefined ? { observedGeneration: obj.metadata.generation } : {};
  const before = status.conditions?.find((c) => c.type === 'Ready');
  let conditions = setCondition(status.conditions, {
    type: 'Ready',
    status: v.ready ? 'True' : 'False',
    reason: v.reason,
    message: v.message.slice(0, 4096),
    ...g,
  });
  conditions = v.stalled
    ? setCondition(conditions, {
        type: 'Stalled',
        status: 'True',
        reason: v.stalled.reason,
        message: v.stalled.message.slice(0, 4096),
        ...g,
      })
    : removeCondition(conditions, 'Stalled');
  const after = conditions.find((c) => c.type === 'Ready')!;
  const custom = isCustom(obj.apiVersion);
  const patch: Record<string, unknown> = { conditions };
  if (custom) {
    if (obj.metadata.generation !== undefined) patch.observedGeneration = obj.metadata.generation;
    Object.assign(patch, v.fields ?? {});
  }
  // Unchanged: skip the request (the server would treat it as a no-op anyway).
  const same = ([k, val]: [string, unknown]): boolean =>
    JSON.stringify(status[k] ?? null) === JSON.stringify(val ?? null);
  if (Object.entries(patch).every(same)) return { patch: undefined, transitioned: false };
  return { patch, transitioned: before?.status !== after.status };
}

/** Sets (a string) or removes (null) FlowOps' own annotations on the watched object, in one merge patch, only when they differ. */
export async function writeOwnerAnnotations(
  kube: KubeClient,
  obj: KubeObject,
  values: Record<string, string | null>,
  fieldManager: string,
): Promise<void> {
  const current = obj.metadata.annotations ?? {};
  const changed = Object.entries(values).filter(([k, v]) => (current[k] ?? null) !== v);
  if (!changed.length) return;
  try {
    await kube.sendPatch(refOf(obj), { metadata: { annotations: Object.fromEntries(changed) } }, 'merge', {
      fieldManager,
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
