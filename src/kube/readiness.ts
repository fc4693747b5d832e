// Whether an object is ready, by the rules of kstatus (sigs.k8s.io/cli-utils/pkg/kstatus/status,
// core.go and generic.go), the library Flux's health checks and `kubectl wait` users rely on.
// Written here rather than imported because kstatus is Go; the rules are a small table per kind.

import type { Condition, KubeObject } from './types.js';

export type HealthStatus = 'Current' | 'InProgress' | 'Failed';

export interface Health {
  status: HealthStatus;
  /** Why it is not Current, for a person: "0/3 replicas ready". Empty when Current. */
  message: string;
}

const CURRENT: Health = { status: 'Current', message: '' };
const inProgress = (message: string): Health => ({ status: 'InProgress', message });
const failed = (message: string): Health => ({ status: 'Failed', message });

type Rule = (obj: KubeObject, status: Record<string, unknown>, spec: Record<string, unknown>) => Health;

const num = (v: unknown, fallback = 0): number => (typeof v === 'number' ? v : fallback);
const conditionsOf = (status: Record<string, unknown>): Condition[] =>
  Array.isArray(status.conditions) ? (status.conditions as Condition[]) : [];
const condition = (status: Record<string, unknown>, type: string): Condition | undefined =>
  conditionsOf(status).find((c) => c.type === type);

/** `spec.replicas` of a workload, which the API server defaults to 1. */
const wanted = (spec: Record<string, unknown>): number => num(spec.replicas, 1);

const deployment: Rule = (_o, status, spec) => {
  const progressing = condition(status, 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded')
    return failed(`progress deadline exceeded${progressing.message ? `: ${progressing.message}` : ''}`);
  const want = wanted(spec);
  const updated = num(status.updatedReplicas);
  if (updated < want) return inProgress(`${updated}/${want} replicas updated`);
  if (num(status.replicas) > updated)
    return inProgress(`${num(status.replicas) - updated} old replicas pending termination`);
  if (num(status.availableReplicas) < want)
    return inProgress(`${num(status.availableReplicas)}/${want} replicas available`);
  if (num(status.readyReplicas) < want) return inProgress(`${num(status.readyReplicas)}/${want} replicas ready`);
  const available = condition(status, 'Available');
  if (available && available.status !== 'True') return inProgress('Deployment is not Available');
  return CURRENT;
};

const statefulSet: Rule = (_o, status, spec) => {
  const strategy = (spec.updateStrategy as { type?: string; rollingUpdate?: { partition?: number } } | undefined) ?? {};
  if (strategy.type === 'OnDelete') return CURRENT;
  const want = wanted(spec);
  const ready = num(status.readyReplicas);
  if (ready < want) return inProgress(`${ready}/${want} replicas ready`);
  const partition = num(strategy.rollingUpdate?.partition);
  if (partition > 0) {
    const updated = num(status.updatedReplicas);
    if (updated < want - partition)
      return inProgress(`${updated}/${want - partition} replicas updated (partition ${partition})`);
    return CURRENT;
  }
  if (num(status.currentReplicas, want) < want)
    return inProgress(`${num(status.currentReplicas)}/${want} replicas current`);
  if (status.updateRevision !== undefined && status.currentRevision !== status.updateRevision)
    return inProgress('rolling update in progress');
  return CURRENT;
};

const daemonSet: Rule = (_o, status) => {
  const desired = num(status.desiredNumberScheduled);
  if (num(status.currentNumberScheduled, desired) < desired)
    return inProgress(`${num(status.currentNumberScheduled)}/${desired} pods scheduled`);
  if (num(status.updatedNumberScheduled, desired) < desired)
    return inProgress(`${num(status.updatedNumberScheduled)}/${desired} pods updated`);
  if (num(status.numberAvailable, desired) < desired)
    return inProgress(`${num(status.numberAvailable)}/${desired} pods available`);
  if (num(status.numberReady) < desired) return inProgress(`${num(status.numberReady)}/${desired} pods ready`);
  return CURRENT;
};

const replicaSet: Rule = (_o, status, spec) => {
  const want = wanted(spec);
  if (num(status.fullyLabeledReplicas, want) < want)
    return inProgress(`${num(status.fullyLabeledReplicas)}/${want} replicas labeled`);
  if (num(status.availableReplicas) < want)
    return inProgress(`${num(status.availableReplicas)}/${want} replicas available`);
  if (num(status.readyReplicas) < want) return inProgress(`${num(status.readyReplicas)}/${want} replicas ready`);
  if (num(status.replicas) > want)
    return inProgress(`${num(status.replicas) - want} extra replicas pending termination`);
  return CURRENT;
};

const job: Rule = (_o, status) => {
  const failedCondition = condition(status, 'Failed');
  if (failedCondition?.status === 'True')
    return failed(`job failed${failedCondition.message ? `: ${failedCondition.message}` : ''}`);
  if (condition(status, 'Complete')?.status === 'True') return CURRENT;
  return inProgress(`job not complete (${num(status.succeeded)} succeeded, ${num(status.active)} active)`);
};

const pod: Rule = (_o, status) => {
  const phase = status.phase;
  if (phase === 'Succeeded') return CURRENT;
  if (phase === 'Failed') return failed(`pod failed${typeof status.message === 'string' ? `: ${status.message}` : ''}`);
  if (phase === 'Running' && condition(status, 'Ready')?.status === 'True') return CURRENT;
  return inProgress(
    `pod is ${typeof phase === 'string' ? phase : 'Pending'}${phase === 'Running' ? ', not Ready' : ''}`,
  );
};

const pvc: Rule = (_o, status) =>
  status.phase === 'Bound'
    ? CURRENT
    : inProgress(`claim is ${typeof status.phase === 'string' ? status.phase : 'Pending'}, not Bound`);

const service: Rule = (_o, status, spec) => {
  if (spec.type !== 'LoadBalancer') return CURRENT;
  const ingress = (status.loadBalancer as { ingress?: unknown[] } | undefined)?.ingress;
  return Array.isArray(ingress) && ingress.length > 0 ? CURRENT : inProgress('load balancer has no ingress yet');
};

const crd: Rule = (_o, status) =>
  condition(status, 'Established')?.status === 'True'
    ? CURRENT
    : inProgress('CustomResourceDefinition is not Established');

const namespace: Rule = (_o, status) =>
  status.phase === 'Terminating' ? inProgress('namespace is terminating') : CURRENT;

/** Kinds with their own rule, by `group/Kind` (core kinds have an empty group). */
const RULES: ReadonlyMap<string, Rule> = new Map([
  ['apps/Deployment', deployment],
  ['apps/StatefulSet', statefulSet],
  ['apps/DaemonSet', daemonSet],
  ['apps/ReplicaSet', replicaSet],
  ['batch/Job', job],
  ['/Pod', pod],
  ['/PersistentVolumeClaim', pvc],
  ['/Service', service],
  ['/Namespace', namespace],
  ['apiextensions.k8s.io/CustomResourceDefinition', crd],
]);

const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';

/**
 * kstatus' verdict on one object. Before any kind rule: an object being deleted is InProgress, and
 * one whose controller has not yet seen its current generation (`status.observedGeneration`
 * behind `metadata.generation`) is InProgress. Kinds without a rule are judged by their
 * conditions the kstatus way (Stalled=True is Failed, Reconciling=True is InProgress) and by a
 * `Ready` condition, which most operators write; an object with none of these is Current.
 */
export function healthOf(obj: KubeObject): Health {
  if (obj.metadata.deletionTimestamp) return inProgress('being deleted');
  const status = (obj.status && typeof obj.status === 'object' ? obj.status : {}) as Record<string, unknown>;
  const rawSpec = (obj as { spec?: unknown }).spec;
  const spec = (rawSpec && typeof rawSpec === 'object' ? rawSpec : {}) as Record<string, unknown>;
  const generation = obj.metadata.generation;
  const observed = status.observedGeneration;
  if (typeof generation === 'number' && typeof observed === 'number' && observed < generation) {
    return inProgress(`generation ${generation} not yet observed (observedGeneration ${observed})`);
  }
  const rule = RULES.get(`${groupOf(obj.apiVersion)}/${obj.kind}`);
  if (rule) return rule(obj, status, spec);
  return byConditions(status, generation);
}

function byConditions(status: Record<string, unknown>, generation: number | undefined): Health {
  const stalled = condition(status, 'Stalled');
  if (stalled?.status === 'True') return failed(stalled.message || stalled.reason || 'Stalled');
  const reconciling = condition(status, 'Reconciling');
  if (reconciling?.status === 'True') return inProgress(reconciling.message || reconciling.reason || 'Reconciling');
  const ready = condition(status, 'Ready');
  if (!ready) return CURRENT;
  if (
    typeof generation === 'number' &&
    typeof ready.observedGeneration === 'number' &&
    ready.observedGeneration < generation
  ) {
    return inProgress(`Ready condition is for generation ${ready.observedGeneration}, not ${generation}`);
  }
  if (ready.status === 'True') return CURRENT;
  return inProgress(
    `Ready=${ready.status}${ready.reason ? ` (${ready.reason})` : ''}${ready.message ? `: ${ready.message}` : ''}`,
  );
}
