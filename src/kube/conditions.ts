import type { Condition } from './types.js';

export const nowRfc3339 = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * Sets one condition in a kstatus list: lastTransitionTime moves only when the status flips, so an
 * unchanged condition is byte-for-byte unchanged and the write is a no-op on the server.
 */
export function setCondition(list: Condition[] | undefined, next: Omit<Condition, 'lastTransitionTime'>): Condition[] {
  const out = [...(list ?? [])];
  const i = out.findIndex((c) => c.type === next.type);
  const prev = i >= 0 ? out[i] : undefined;
  const cond: Condition = { ...next, lastTransitionTime: prev && prev.status === next.status ? prev.lastTransitionTime : nowRfc3339() };
  if (i >= 0) out[i] = cond;
  else out.push(cond);
  return out;
}

export function removeCondition(list: Condition[] | undefined, type: string): Condition[] {
  return (list ?? []).filter((c) => c.type !== type);
}
