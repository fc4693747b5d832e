import { LRUCache } from 'lru-cache';
import type { CommitState, FlowSourceStatus, InventoryEntry } from '../api/index.js';
import { FLOW_API_VERSION, FLOW_KIND } from '../api/names.js';
import type { KubeClient, Condition, KubeObject } from '../kube/index.js';
import { healthOf } from '../kube/readiness.js';
import type { Logger } from '../log/index.js';
import { shaOfRevision } from '../source/revision.js';
import type { NotifyEvent } from './event.js';

export type CommitStateName = CommitState['state'];

/** A commit reached a state: the notifier records it on the FlowSource and tells the forges. */
export interface CommitTransition {
  /** namespace/name of the FlowSource. */
  source: string;
  revision: string;
  sha: string;
  state: CommitStateName;
  description: string;
}

export interface CommitTrackerOptions {
  kube: KubeClient;
  log: Logger;
  onTransition: (t: CommitTransition) => void;
  /** A commit whose objects are not all Ready by then is a failure (default 5 min). */
  deadlineMs?: number;
  /** How often a pending commit's objects are looked at (default 1 s); Events end it sooner. */
  checkEveryMs?: number;
}

interface Pending {
  source: string;
  revision: string;
  sha: string;
  inventory: InventoryEntry[];
  deadline: number;
  checking: boolean;
}

const isFlow = (e: { apiVersion: string; kind: string }): boolean =>
  e.apiVersion === FLOW_API_VERSION && e.kind === FLOW_KIND;
const nameOf = (e: { kind: string; namespace?: string | undefined; name: string }): string =>
  `${e.kind}/${e.namespace ? `${e.namespace}/` : ''}${e.name}`;

/** Enough for every object one commit touches to stall at once, and bounded for a long-running process. */
const STALLS_KEPT = 10_000;

const objectKey = (e: NotifyEvent['involved']): string => `${e.kind}/${e.namespace}/${e.name}`;

const stalledText = (e: NotifyEvent): string => `${nameOf(e.involved)} stalled: ${e.message}`;

/** The stall is of an object the commit touched, or of one the commit's Flow reconciles. */
function stallHits(p: { inventory: InventoryEntry[] }, e: NotifyEvent): boolean {
  const flow = /^Flow ([^:\s]+):/.exec(e.message)?.[1];
  return p.inventory.some(
    (i) =>
      (i.kind === e.involved.kind &&
        i.name === e.involved.name &&
        (i.namespace ?? e.involved.namespace) === e.involved.namespace) ||
      (flow !== undefined && isFlow(i) && i.name === flow),
  );
}

const firstLine = (message: string): string => message.split('\n')[0] ?? message;

/**
 * The first problem of a rejection, which validation words as `file:line: field: what was expected`;
 * it goes first since forges cut descriptions short.
 */
const firstProblem = (message: string): string => firstLine(message).replace(/^commit rejected, nothing applied: /, '');

/**
 * Follows each commit a FlowSource syncs through pending → success | failure, or straight to
 * error (rejected) or failure (apply failed), from what the FlowSource's status and FlowOps' Events
 * say. It reads only; the reconcile path never waits for it.
 */
export class CommitTracker {
  private readonly pending = new Map<string, Pending>();
  /** The last history entry handled per source, so a status write that changed nothing else is not a new commit. */
  private readonly seen = new Map<string, string>();
  /**
   * The objects whose latest FlowOps Event is a stall, with when it came. A commit's objects are
   * reconciled as soon as they are applied, before the FlowSource's status says the commit was
   * applied: a stall can come first, and is matched when the commit becomes pending.
   */
  private readonly stalls = new LRUCache<string, { event: NotifyEvent; at: number }>({ max: STALLS_KEPT });
  /** When each source's last history entry was handled: a stall older than that belongs to an earlier commit. */
  private readonly seenAt = new Map<string, number>();
  /** Orders stalls and history entries as they came (two can come in one millisecond). */
  private tick = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: CommitTrackerOptions) {}

  start(): void {
    this.timer = setInterval(() => this.checkAll(), this.opts.checkEveryMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.pending.clear();
  }

  /** A FlowSource was listed or changed; a commit whose final state it already records is left alone. */
  onSource(src: KubeObject): void {
    const key = `${src.metadata.namespace ?? 'default'}/${src.metadata.name}`;
    const status = (src.status ?? {}) as FlowSourceStatus;
    const last = status.history?.[0];
    if (!last) return;
    const mark = `${last.revision}|${last.outcome}|${last.time}`;
    if (this.seen.get(key) === mark) return;
    this.seen.set(key, mark);
    const since = this.seenAt.get(key) ?? 0;
    this.seenAt.set(key, ++this.tick);
    const sha = shaOfRevision(last.revision);
    if (!sha) return;
    const known = status.commits?.find((c) => c.revision === last.revision);
    const settled = known && known.state !== 'pending' && Date.parse(known.time) >= Date.parse(last.time);
    if (settled) return;
    const base = { source: key, revision: last.revision, sha };
    if (last.outcome === 'Rejected')
      return this.finish(base, 'error', `rejected: ${firstProblem(last.message ?? 'the commit did not validate')}`);
    if (last.outcome === 'Failed')
      return this.finish(base, 'failure', `apply failed: ${firstLine(last.message ?? '')}`);
    const inventory = status.inventory ?? [];
    const p: Pending = {
      ...base,
      inventory,
      deadline: Date.now() + (this.opts.deadlineMs ?? 5 * 60_000),
      checking: false,
    };
    this.pending.set(key, p);
    this.opts.onTransition({
      ...base,
      state: 'pending',
      description: `applied; waiting for ${inventory.length} object(s) to be Ready`,
    });
    const early = [...this.stalls.values()].find((s) => s.at >= since && stallHits(p, s.event));
    if (early) return this.finish(p, 'failure', stalledText(early.event));
    void this.check(key);
  }

  onSourceDeleted(src: KubeObject): void {
    const key = `${src.metadata.namespace ?? 'default'}/${src.metadata.name}`;
    this.pending.delete(key);
    this.seen.delete(key);
    this.seenAt.delete(key);
  }

  /**
   * A watched object stalled (a terminal failure, not retried): the pending commit whose inventory
   * holds it, or the Flow that reconciles it, failed, naming it.
   */
  onEvent(e: NotifyEvent): void {
    const object = objectKey(e.involved);
    if (e.reason !== 'ReconcileStalled') {
      // A later Event of the same object (Reconciled, a retry's failure) says it is stalled no more.
      this.stalls.delete(object);
      return;
    }
    this.stalls.set(object, { event: e, at: ++this.tick });
    for (const p of this.pending.values()) if (stallHits(p, e)) this.finish(p, 'failure', stalledText(e));
  }

  private finish(
    p: { source: string; revision: string; sha: string },
    state: CommitStateName,
    description: string,
  ): void {
    const current = this.pending.get(p.source);
    if (current?.revision === p.revision) this.pending.delete(p.source);
    this.opts.onTransition({ source: p.source, revision: p.revision, sha: p.sha, state, description });
  }

  private checkAll(): void {
    for (const key of this.pending.keys()) void this.check(key);
  }

  /** success when every object is Ready; failure on the first Failed one, or at the deadline on the first not Ready. */
  private async check(key: string): Promise<void> {
    const p = this.pending.get(key);
    if (!p || p.checking) return;
    p.checking = true;
    try {
      let firstNotReady: string | undefined;
      for (const entry of p.inventory) {
        const verdict = await this.readiness(entry);
        if (verdict.failed) return this.finish(p, 'failure', `${nameOf(entry)} failed: ${verdict.message}`);
        if (!verdict.ready) firstNotReady ??= `${nameOf(entry)}: ${verdict.message}`;
      }
      if (this.pending.get(key) !== p) return;
      if (!firstNotReady) return this.finish(p, 'success', `all ${p.inventory.length} object(s) Ready`);
      if (Date.now() > p.deadline) this.finish(p, 'failure', `deadline passed; not Ready: ${firstNotReady}`);
    } catch (err) {
      this.opts.log.debug({ err, source: key }, 'commit readiness check failed; tried again');
    } finally {
      p.checking = false;
    }
  }

  /**
   * kstatus' verdict, except for Flows: a Flow is Ready only once FlowOps reconciled this
   * generation and said Ready=True (a Flow just applied has no status, which kstatus reads as Current).
   */
  private async readiness(entry: InventoryEntry): Promise<{ ready: boolean; failed: boolean; message: string }> {
    const obj = await this.opts.kube.get({
      apiVersion: entry.apiVersion,
      kind: entry.kind,
      name: entry.name,
      ...(entry.namespace ? { namespace: entry.namespace } : {}),
    });
    if (!obj) return { ready: false, failed: false, message: 'not found' };
    const health = healthOf(obj);
    if (health.status === 'Failed') return { ready: false, failed: true, message: health.message };
    if (isFlow(entry)) {
      const status = (obj.status ?? {}) as { observedGeneration?: number; conditions?: Condition[] };
      const ready = status.conditions?.find((c) => c.type === 'Ready');
      const current = status.observedGeneration === obj.metadata.generation;
      if (!current || ready?.status !== 'True')
        return {
          ready: false,
          failed: false,
          message: ready?.message || (current ? 'not Ready yet' : 'not reconciled yet'),
        };
      return { ready: true, failed: false, message: '' };
    }
    return { ready: health.status === 'Current', failed: false, message: health.message };
  }
}
