// A failure episode of one watched object, kept on the object (an annotation, like the inventory,
// so every worker sees it): onError runs once per episode, and a terminal failure stalls the
// object until the object's generation or the Flow changes, whoever enqueues it meanwhile (a child
// event, a resync, a restart).

import { createHash } from 'node:crypto';
import type { KubeObject } from '../kube/index.js';

export const FAILURE_ANNOTATION = 'flowops.io/failure';

export interface FailureState {
  /** fingerprintOf(object, Flow) when the episode began. */
  fingerprint: string;
  terminal: boolean;
  step: string;
  reason: string;
}

/**
 * What a change must move to end a stall: the Flow's uid and generation, and the object's
 * generation, or for kinds without one (ConfigMap) a hash of everything but metadata and status.
 */
export function fingerprintOf(obj: KubeObject, flow: { uid: string; generation: number }): string {
  const version = obj.metadata.generation ?? contentHash(obj);
  return `${flow.uid}/${flow.generation}/${version}`;
}

function contentHash(obj: KubeObject): string {
  const { metadata: _m, status: _s, ...rest } = obj;
  const labels = obj.metadata.labels ?? {};
  return createHash('sha1')
    .update(JSON.stringify([rest, labels]))
    .digest('hex')
    .slice(0, 16);
}

export function readFailure(obj: KubeObject): FailureState | undefined {
  const raw = obj.metadata.annotations?.[FAILURE_ANNOTATION];
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<FailureState>;
    return typeof v.fingerprint === 'string'
      ? { fingerprint: v.fingerprint, terminal: v.terminal === true, step: v.step ?? '', reason: v.reason ?? '' }
      : undefined;
  } catch {
    return undefined;
  }
}

export const encodeFailure = (f: FailureState): string => JSON.stringify(f);
