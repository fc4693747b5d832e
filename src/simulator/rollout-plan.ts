/** A ReplicaSet as the rollout arithmetic sees it. */
export interface ReplicaCounts {
  /** spec.replicas */
  spec: number;
  /** status.availableReplicas */
  available: number;
  /** status.replicas: pods that exist */
  pods: number;
}

export interface RolloutLimits {
  want: number;
  maxSurge: number;
  maxUnavailable: number;
}

/** What one sync changes: the new ReplicaSet's replicas, or the old ones' (same order as given), or nothing. */
export interface RolloutStep {
  newReplicas?: number;
  oldReplicas?: number[];
}

/**
 * One step of a RollingUpdate, by the arithmetic of the real controller (rolling.go): scale the new
 * ReplicaSet up while the total stays within want + maxSurge; otherwise scale old ones down (their
 * unavailable pods first, then oldest first) while want − maxUnavailable pods stay available.
 * `olds` must be oldest first.
 */
export function rollingStep(limits: RolloutLimits, current: ReplicaCounts, olds: ReplicaCounts[]): RolloutStep {
  const { want, maxSurge } = limits;
  // Both 0 would never progress; the API server refuses it, and the controller treats it as 1.
  const maxUnavailable = maxSurge === 0 && limits.maxUnavailable === 0 ? 1 : limits.maxUnavailable;
  const total = current.spec + olds.reduce((n, o) => n + o.spec, 0);
  if (current.spec > want) return { newReplicas: want };
  if (current.spec < want && total < want + maxSurge) {
    return { newReplicas: current.spec + Math.min(want + maxSurge - total, want - current.spec) };
  }
  const minAvailable = want - maxUnavailable;
  let budget = total - minAvailable - (current.spec - current.available);
  if (budget <= 0) return {};
  const next = olds.map((o) => o.spec);
  // Unavailable old pods go first: removing them costs no availability.
  olds.forEach((o, i) => {
    const cut = Math.min(Math.max(0, next[i]! - o.available), budget);
    next[i]! -= cut;
    budget -= cut;
  });
  const available = current.available + olds.reduce((n, o) => n + o.available, 0);
  let scaleDown = available - minAvailable;
  next.forEach((spec, i) => {
    const cut = Math.min(spec, Math.max(0, scaleDown));
    next[i] = spec - cut;
    scaleDown -= cut;
  });
  return next.some((n, i) => n !== olds[i]!.spec) ? { oldReplicas: next } : {};
}

/** Recreate: every old ReplicaSet to 0 first; the new one to `want` only once their pods are gone. */
export function recreateStep(want: number, current: ReplicaCounts, olds: ReplicaCounts[]): RolloutStep {
  if (olds.some((o) => o.spec > 0)) return { oldReplicas: olds.map(() => 0) };
  if (olds.some((o) => o.pods > 0)) return {};
  return current.spec !== want ? { newReplicas: want } : {};
}
