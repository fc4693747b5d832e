// What the rollout controller reads off each watched object: the generation that last reconciled
// it, the one it is assigned, and its readiness as FlowOps wrote it (the Ready condition).

import type { Condition, KubeObject } from '../kube/index.js';
import { FLOW_GENERATION_ANNOTATION, generationOf, ROLLOUT_TARGET_ANNOTATION } from '../api/rollout-names.js';

export interface ObjectFacts {
  /** `namespace/name`. */
  key: string;
  obj: KubeObject;
  /** The generation that last reconciled it (its flowops.io/flow-generation). */
  current: number | undefined;
  /** The generation assigned to it (flowops.io/rollout-target), if any. */
  target: number | undefined;
  ready: boolean;
  /** Stalled=True: it will not become Ready without a change. */
  stalled: boolean;
  /** Why it is not Ready (its Ready condition's message). */
  reason: string;
  labels: Record<string, string>;
}

export function factsOf(obj: KubeObject, pendingTarget: number | undefined): ObjectFacts {
  const a = obj.metadata.annotations ?? {};
  const conditions = (obj.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  const stalled = conditions.some((c) => c.type === 'Stalled' && c.status === 'True');
  return {
    key: `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`,
    obj,
    current: generationOf(a[FLOW_GENERATION_ANNOTATION]),
    target: pendingTarget ?? generationOf(a[ROLLOUT_TARGET_ANNOTATION]),
    ready: ready?.status === 'True',
    stalled,
    reason: ready?.message ?? 'not reconciled yet',
    labels: obj.metadata.labels ?? {},
  };
}

/** The object is assigned generation g (reached by it). */
export const onGeneration = (o: ObjectFacts, g: number): boolean => (o.target ?? o.current) === g;

/** The object has been reconciled by generation g, and that run found it Ready. */
export const readyOn = (o: ObjectFacts, g: number): boolean => onGeneration(o, g) && o.current === g && o.ready;
