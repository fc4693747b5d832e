// What the last successful run of a watched object left, kept in memory where a child watch cache
// is (`flowops up`), so that a change of only a child's status re-judges readiness and the status
// projection without running the steps again. The steps run again when any of this moved: the
// object (generation, labels, foreign annotations; content for kinds without a generation), the
// Flow (uid, generation, revision), a child's version (deleted, or changed outside its status),
// or the resync came due.

import { FLOW_GENERATION_ANNOTATION } from '../api/rollout-names.js';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Outputs } from '../executors/index.js';
import type { KubeObject, ObjectRef } from '../kube/index.js';
import { refOf } from '../kube/types.js';
import { INVENTORY_ANNOTATION } from './child-inventory.js';
import { FAILURE_ANNOTATION } from './failure-state.js';
import { LAST_RUN_ANNOTATION } from './last-run.js';

export interface MemoChild {
  ref: ObjectRef;
  /** generation, or resourceVersion for kinds without one. */
  version: string;
  step: string;
  keep: boolean;
  readyWhen: string | undefined;
}

export interface RunMemo {
  fingerprint: string;
  /** performance.now() of the run: a resync is due from resyncMs after it. */
  at: number;
  steps: Record<string, { Outputs: Outputs }>;
  children: MemoChild[];
}

// flowops.io/flow-generation is written by the run itself; the generation that ran is flow.generation below.
const OWN = new Set([INVENTORY_ANNOTATION, FAILURE_ANNOTATION, LAST_RUN_ANNOTATION, FLOW_GENERATION_ANNOTATION]);

/** What must stay the same for a run's steps to stand: see the file comment. */
export function runFingerprint(
  obj: KubeObject,
  flow: { uid: string; generation: number; revision?: string | undefined },
): string {
  const annotations = Object.entries(obj.metadata.annotations ?? {}).filter(([k]) => !OWN.has(k));
  const { metadata: _m, status: _s, ...content } = obj;
  const version = obj.metadata.generation !== undefined ? [obj.metadata.generation] : [content];
  const m = obj.metadata;
  const parts = [
    flow.uid,
    flow.generation,
    flow.revision ?? '',
    m.uid ?? '',
    m.labels ?? {},
    annotations,
    m.deletionTimestamp ?? '',
    ...version,
  ];
  return createHash('sha1').update(JSON.stringify(parts)).digest('base64');
}

export const childVersion = (live: KubeObject): string =>
  live.metadata.generation !== undefined ? `g${live.metadata.generation}` : `rv${live.metadata.resourceVersion ?? ''}`;

export class RunMemos {
  private readonly memos = new LRUCache<string, RunMemo>({ max: 50_000 });

  set(key: string, memo: RunMemo): void {
    this.memos.set(key, memo);
  }

  delete(key: string): void {
    this.memos.delete(key);
  }

  /**
   * The memo if the last run's steps still stand for `obj`, with each child's live object from
   * the cache; undefined when the steps must run.
   */
  standing(
    key: string,
    fingerprint: string,
    resyncMs: number | undefined,
    live: (ref: ObjectRef) => KubeObject | undefined,
  ): { memo: RunMemo; children: KubeObject[] } | undefined {
    const memo = this.memos.get(key);
    if (!memo || memo.fingerprint !== fingerprint) return undefined;
    // The resync requeue is jittered by ±10 %: one arriving early still counts as the resync.
    if (resyncMs !== undefined && performance.now() - memo.at >= resyncMs * 0.85) return undefined;
    const children: KubeObject[] = [];
    for (const c of memo.children) {
      const obj = live(c.ref);
      if (!obj || obj.metadata.deletionTimestamp || childVersion(obj) !== c.version) return undefined;
      children.push(obj);
    }
    return { memo, children };
  }
}

export const memoChild = (live: KubeObject, opts: Omit<MemoChild, 'ref' | 'version'>): MemoChild => ({
  ref: refOf(live),
  version: childVersion(live),
  ...opts,
});
