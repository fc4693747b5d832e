import { fakeSha256 } from './template-hash.js';
import type { Container, Pod, PodCondition, PodStatus } from './types.js';
import { rfc3339 } from './pods.js';

/** The stages a simulated pod goes through; a pod of a Job goes on to Succeeded. */
export type PodStage = 'Scheduled' | 'Running' | 'Succeeded';

export interface NodeFacts {
  hostIP: string;
  podIP: string;
}

/** docker.io/library/nginx:latest for `nginx`, as the container runtime reports `image`. */
export function normalizeImage(image: string): string {
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const hasRegistry = first.includes('.') || first.includes(':') || first === 'localhost';
  let full = hasRegistry ? image : slash < 0 ? `docker.io/library/${image}` : `docker.io/${image}`;
  const lastPart = full.slice(full.lastIndexOf('/') + 1);
  if (!lastPart.includes(':') && !lastPart.includes('@')) full += ':latest';
  return full;
}

function imageId(image: string): string {
  const full = normalizeImage(image);
  const at = full.indexOf('@');
  if (at >= 0) return full;
  const repo = full.slice(0, full.lastIndexOf(':'));
  return `${repo}@sha256:${fakeSha256('image', full)}`;
}

function condition(type: string, ok: boolean, at: string, reason?: string): PodCondition {
  return {
    type,
    status: ok ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: at,
    ...(reason ? { reason } : {}),
  };
}

/** Kept when the condition's status did not change, as the kubelet keeps lastTransitionTime. */
function keepTransitionTimes(next: PodCondition[], prev: PodCondition[] | undefined): PodCondition[] {
  return next.map((c) => {
    const old = prev?.find((p) => p.type === c.type);
    return old && old.status === c.status ? { ...c, lastTransitionTime: old.lastTransitionTime } : c;
  });
}

/** qosClass as the API server computes it on create (Guaranteed needs limits = requests for every container). */
function qosClass(pod: Pod): string {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const res = containers.map(
    (c) => (c.resources ?? {}) as { requests?: Record<string, string>; limits?: Record<string, string> },
  );
  if (res.every((r) => !Object.keys(r.requests ?? {}).length && !Object.keys(r.limits ?? {}).length))
    return 'BestEffort';
  const guaranteed = res.every((r) =>
    ['cpu', 'memory'].every((k) => r.limits?.[k] !== undefined && (r.requests?.[k] ?? r.limits[k]) === r.limits[k]),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/**
 * The status the scheduler and kubelet would have written by `stage`, in the shape kubelet 1.3x
 * writes it. Times already in `pod.status` are kept, so recomputing the same stage yields the same status.
 */
export function podStatusAt(pod: Pod, stage: PodStage, node: NodeFacts, now = Date.now()): PodStatus {
  const prev = pod.status;
  const at = rfc3339(now);
  const scheduledAt =
    prev?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True')?.lastTransitionTime ?? at;
  if (stage === 'Scheduled') {
    return { phase: 'Pending', conditions: [condition('PodScheduled', true, scheduledAt)], qosClass: qosClass(pod) };
  }
  const startTime = typeof prev?.startTime === 'string' ? prev.startTime : at;
  const running = stage === 'Running';
  const done = running ? undefined : 'PodCompleted';
  const conditions = keepTransitionTimes(
    [
      condition('PodReadyToStartContainers', running, at),
      condition('Initialized', true, at, pod.spec?.initContainers?.length && !running ? 'PodCompleted' : undefined),
      condition('Ready', running, at, done),
      condition('ContainersReady', running, at, done),
      condition('PodScheduled', true, scheduledAt),
    ],
    prev?.conditions,
  );
  const containerStatus = (c: Container, finished: boolean, previous: unknown): ContainerStatus => {
    const s = ((previous ?? []) as ContainerStatus[]).find((p) => p.name === c.name)?.state;
    const startedAt = s?.running?.startedAt ?? s?.terminated?.startedAt ?? at;
    const finishedAt = s?.terminated?.finishedAt ?? at;
    return {
      containerID: `containerd://${fakeSha256('container', String(pod.metadata.uid), c.name)}`,
      image: normalizeImage(c.image ?? ''),
      imageID: imageId(c.image ?? ''),
      lastState: {},
      name: c.name,
      ready: !finished,
      restartCount: 0,
      started: !finished,
      state: finished
        ? {
            terminated: {
              containerID: `containerd://${fakeSha256('container', String(pod.metadata.uid), c.name)}`,
              exitCode: 0,
              finishedAt,
              reason: 'Completed',
              startedAt,
            },
          }
        : { running: { startedAt } },
    };
  };
  const status: PodStatus = {
    phase: running ? 'Running' : 'Succeeded',
    conditions,
    hostIP: node.hostIP,
    hostIPs: [{ ip: node.hostIP }],
    podIP: node.podIP,
    podIPs: [{ ip: node.podIP }],
    startTime,
    containerStatuses: (pod.spec?.containers ?? []).map((c) => containerStatus(c, !running, prev?.containerStatuses)),
    qosClass: qosClass(pod),
  };
  if (pod.spec?.initContainers?.length)
    status.initContainerStatuses = pod.spec.initContainers.map((c) =>
      containerStatus(c, true, prev?.initContainerStatuses),
    );
  return status;
}

interface ContainerStatus {
  name: string;
  state?: {
    running?: { startedAt: string };
    terminated?: { startedAt: string; finishedAt: string; exitCode: number; reason: string; containerID: string };
  };
  [key: string]: unknown;
}

/** How far the pod's written status has got. */
export function stageOf(pod: Pod): PodStage | undefined {
  switch (pod.status?.phase) {
    case 'Running':
      return 'Running';
    case 'Succeeded':
      return 'Succeeded';
    case 'Pending':
      return pod.status.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'True')
        ? 'Scheduled'
        : undefined;
    default:
      return undefined;
  }
}
