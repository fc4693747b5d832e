import type { KubeObject, OwnerReference } from '../kube/index.js';
import type { Pod, PodTemplate } from './types.js';

/** A controller ownerReference, as the workload controllers set it on what they create. */
export function controllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** A Pod from a template, owned by its controller (controller.GetPodFromTemplate). */
export function podFromTemplate(
  owner: KubeObject,
  name: string,
  template: PodTemplate | undefined,
  extra: { labels?: Record<string, string>; annotations?: Record<string, string> } = {},
): Pod {
  const labels = { ...template?.metadata?.labels, ...extra.labels };
  const annotations = { ...template?.metadata?.annotations, ...extra.annotations };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: owner.metadata.namespace,
      ...(Object.keys(labels).length ? { labels } : {}),
      ...(Object.keys(annotations).length ? { annotations } : {}),
      ownerReferences: [controllerRef(owner)],
    },
    spec: structuredClone(template?.spec ?? { containers: [] }),
  };
}

export function isDeleting(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined;
}

/** Pods a controller still counts: not being deleted, not finished. */
export function isActive(pod: Pod): boolean {
  return !isDeleting(pod) && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}

export function isPodReady(pod: Pod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true
  );
}

/**
 * podutil.IsPodAvailable with a clock: 0 when the pod has been Ready for minReadySeconds, the
 * milliseconds until then when only time is missing, undefined when it is not Ready.
 */
export function availableInMs(pod: Pod, minReadySeconds: number, now: number): number | undefined {
  if (!isPodReady(pod)) return undefined;
  if (!minReadySeconds) return 0;
  const since = Date.parse(pod.status!.conditions!.find((c) => c.type === 'Ready')!.lastTransitionTime);
  const left = since + minReadySeconds * 1000 - now;
  return Math.max(left, 0);
}

export function labelsMatch(
  want: Record<string, string> | undefined,
  have: Record<string, string> | undefined,
): boolean {
  return Object.entries(want ?? {}).every(([k, v]) => have?.[k] === v);
}

/** RFC 3339 with second precision, as Kubernetes' metav1.Time serialises. */
export function rfc3339(ms = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
