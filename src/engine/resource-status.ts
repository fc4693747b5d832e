import type { KubeClient } from '../kube/client.js';
import { isNotFound } from '../kube/client.js';
import type { Condition, KubeObject } from '../kube/types.js';
import { refOf } from '../kube/types.js';
import { setCondition } from './conditions.js';

/**
 * Writes the Ready condition onto the watched resource: through /status when the kind has that
 * subresource, into the object itself for a custom resource without one, and not at all for
 * built-ins that have no status (a ConfigMap).
 */
export async function setResourceReady(kube: KubeClient, obj: KubeObject, ready: boolean, reason: string, message: string, fieldManager: string): Promise<boolean> {
  const status = (obj.status && typeof obj.status === 'object' ? obj.status : {}) as { conditions?: Condition[] };
  const before = status.conditions?.find((c) => c.type === 'Ready');
  const conditions = setCondition(status.conditions, {
    type: 'Ready',
    status: ready ? 'True' : 'False',
    reason,
    message: message.slice(0, 4096),
    ...(obj.metadata.generation !== undefined ? { observedGeneration: obj.metadata.generation } : {}),
  });
  const after = conditions.find((c) => c.type === 'Ready')!;
  // Unchanged: skip the request (the server would treat it as a no-op anyway).
  if (before && JSON.stringify(before) === JSON.stringify(after)) return false;
  const withStatus = await kube.hasStatus(obj.apiVersion, obj.kind);
  const custom = obj.apiVersion.includes('.') && !obj.apiVersion.endsWith('.k8s.io/v1');
  if (!withStatus && !custom) return false;
  try {
    await kube.sendPatch(refOf(obj), { status: { conditions } }, 'merge', { fieldManager, ...(withStatus ? { subresource: 'status' } : {}) });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  return before?.status !== after.status;
}
