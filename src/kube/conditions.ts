import type { Condition, KubeObject } from './types.js';

/** An object's status.conditions, whatever shape status has (malformed entries left out). */
export function conditionsOf(obj: KubeObject): Condition[] {
  const status =
    obj.status && typeof obj.status === 'object' && !Array.isArray(obj.status)
      ? (obj.status as Record<string, unknown>)
      : {};
  const c = status.conditions;
  return Array.isArray(c) ? (c as Condition[]).filter((x) => x && typeof x.type === 'string') : [];
}

/** The condition of `type` (Ready, Stalled, …) on an object, if it has one. */
export const findCondition = (obj: KubeObject, type: string): Condition | undefined =>
  conditionsOf(obj).find((c) => c.type === type);

export const nowRfc3339 = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * Sets one condition in a kstatus list: lastTransitionTime moves only when the status flips, so an
 * unchanged condition is byte-for-byte unchanged and the write is a no-op on the server.
 */
export function setCondition(list: Condition[] | undefined, next: Omit<Condition, 'lastTransitionTime'>): Condition[] {
  const out = [...(list ?? [])];
  const i = out.findIndex((c) => c.type === next.type);
  const prev = i >= 0 ? out[i] : undefined;
  const cond: Condition = {
    ...next,
    lastTransitionTime: prev && prev.status === next.status ? prev.lastTransitionTime : nowRfc3339(),
  };
  if (i >= 0) out[i] = cond;
  else out.push(cond);
  return out;
}

export function removeCondition(list: Condition[] | undefined, type: string): Condition[] {
  return (list ?? []).filter((c) => c.type !== type);
}
