import {
  type KubeClient,
  isNotFound,
  KubeApiError,
  type Condition,
  type KubeObject,
  removeCondition,
  setCondition,
} from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { rolloutConditions } from './rollout-conditions.js';
import { replacingRollout } from './rollout-status-patch.js';
import type { GenerationStatus, RolloutStatus } from '../api/index.js';

export interface FlowStatusSummary {
  generation: number;
  state: 'ready' | 'failing' | 'invalid' | 'waiting' | 'suspended';
  message: string;
  watched: number;
  succeeded: number;
  failed: number;
  /** Watched objects whose children are all ready / not all ready after a successful run. */
  ready: number;
  notReady: number;
  lastError?: string;
  lastReconcileTime?: string;
  /** status.generations and status.rollout (src/rollout), written in the same patch. */
  rollout?: { generations: GenerationStatus[]; rollout: RolloutStatus | undefined };
}

const DEBOUNCE_MS = 200;
/**
 * A write that failed (a 5xx, a timeout, a connection cut) is tried again after this, with the
 * summary computed anew. Callers ask for a write only when what they hold changed (the rollout
 * controller keeps what it last asked to have written), so a write dropped here would leave the
 * Flow's status behind until something else changed: after a leader's failover under load, a
 * rollout's last stage stayed unwritten and the Flow never showed Complete.
 */
const RETRY_MS = 1000;

/** Writes each Flow's kstatus (Ready / Reconciling / Stalled, counts) at most every 200 ms per Flow. */
export class FlowStatusWriter {
  private readonly pending = new Map<
    string,
    { flow: KubeObject; summarize: () => FlowStatusSummary; timer: NodeJS.Timeout }
  >();
  /** The write in flight per Flow, which the next write of that Flow waits for. */
  private readonly writing = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly kube: KubeClient,
    private readonly log: Logger,
    private readonly fieldManager: string,
  ) {}

  schedule(key: string, flow: KubeObject, summarize: () => FlowStatusSummary): void {
    if (this.stopped) return;
    const existing = this.pending.get(key);
    if (existing) {
      existing.flow = flow;
      existing.summarize = summarize;
      return;
    }
    this.writeIn(key, flow, summarize, DEBOUNCE_MS);
  }

  private writeIn(key: string, flow: KubeObject, summarize: () => FlowStatusSummary, ms: number): void {
    // A write cut short by shutdown (socket hang up) must not become an unhandled rejection.
    const timer = setTimeout(() => {
      // schedule() may have replaced the Flow and the summary since: the retry uses the newest.
      const latest = this.pending.get(key) ?? { flow, summarize };
      // One write per Flow at a time: a write that started later but landed first would be
      // overwritten by the older summary (the status went back a rollout stage).
      const prior = this.writing.get(key);
      const write = (async () => {
        await prior?.catch(() => undefined);
        await this.flush(key);
      })();
      this.writing.set(key, write);
      write
        .catch((err: unknown) => {
          this.log.warn({ err, flow: key }, 'could not write Flow status; trying again');
          // A newer schedule() since then writes the newer summary itself.
          if (!this.stopped && !this.pending.has(key)) this.writeIn(key, latest.flow, latest.summarize, RETRY_MS);
        })
        .finally(() => {
          if (this.writing.get(key) === write) this.writing.delete(key);
        });
    }, ms);
    // A retry alone must not keep a process alive whose server has gone (a render's throwaway one).
    if (ms === RETRY_MS) timer.unref();
    this.pending.set(key, { flow, summarize, timer });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }

  private async flush(key: string): Promise<void> {
    const p = this.pending.get(key);
    this.pending.delete(key);
    if (!p || this.stopped) return;
    const s = p.summarize();
    const current =
      (await this.kube
        .get({
          apiVersion: p.flow.apiVersion,
          kind: p.flow.kind,
          name: p.flow.metadata.name!,
          namespace: p.flow.metadata.namespace,
        })
        .catch(() => undefined)) ?? p.flow;
    const have = (current.status ?? {}) as { conditions?: Condition[]; rollout?: RolloutStatus };
    const prev = have.conditions;
    const status: Record<string, unknown> = {
      observedGeneration: s.generation,
      // A halted rollout keeps Ready=False whatever the objects' runs say (src/rollout).
      conditions: rolloutConditions(conditionsFor(prev, s), s.rollout ? s.rollout.rollout : have.rollout, s.generation),
      resources: { watched: s.watched, succeeded: s.succeeded, failed: s.failed, ready: s.ready, notReady: s.notReady },
      // null removes it (a merge patch): the error is cleared once no object fails any more.
      lastError: s.lastError ? s.lastError.slice(0, 2048) : null,
      ...(s.rollout ? { generations: s.rollout.generations, rollout: replacingRollout(s.rollout.rollout) } : {}),
    };
    // Nothing but the time moved (a resync whose runs all changed nothing): no write. The time
    // written is then that of the last run that changed what the status says.
    if (sameStatus(current.status, status)) return;
    if (s.lastReconcileTime) status.lastReconcileTime = s.lastReconcileTime;
    try {
      await this.kube.patch(
        {
          apiVersion: p.flow.apiVersion,
          kind: p.flow.kind,
          name: p.flow.metadata.name!,
          namespace: p.flow.metadata.namespace,
        },
        { status },
        'merge',
        {
          subresource: 'status',
          fieldManager: this.fieldManager,
        },
      );
    } catch (err) {
      if (isNotFound(err)) return;
      // A refusal the server will repeat (a 4xx: the status itself is invalid) is logged, not retried.
      if (err instanceof KubeApiError && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 429) {
        this.log.warn({ err, flow: key }, 'could not write Flow status');
        return;
      }
      throw err;
    }
  }
}

function sameStatus(current: unknown, next: Record<string, unknown>): boolean {
  const have = (current && typeof current === 'object' ? current : {}) as Record<string, unknown>;
  return Object.entries(next).every(([k, v]) => JSON.stringify(have[k] ?? null) === JSON.stringify(v ?? null));
}

function conditionsFor(prev: Condition[] | undefined, s: FlowStatusSummary): Condition[] {
  const g = { observedGeneration: s.generation };
  let c = prev;
  switch (s.state) {
    case 'ready':
      c = setCondition(c, { type: 'Ready', status: 'True', reason: 'Succeeded', message: s.message, ...g });
      c = removeCondition(removeCondition(c, 'Reconciling'), 'Stalled');
      break;
    case 'suspended':
      c = setCondition(c, { type: 'Ready', status: 'True', reason: 'Suspended', message: s.message, ...g });
      c = removeCondition(removeCondition(c, 'Reconciling'), 'Stalled');
      break;
    case 'failing':
      c = setCondition(c, { type: 'Ready', status: 'False', reason: 'ReconcileFailed', message: s.message, ...g });
      c = setCondition(c, {
        type: 'Reconciling',
        status: 'True',
        reason: 'RetryingFailures',
        message: 'failed resources are retried with backoff',
        ...g,
      });
      c = removeCondition(c, 'Stalled');
      break;
    case 'waiting':
      c = setCondition(c, { type: 'Ready', status: 'False', reason: 'WatchedKindNotServed', message: s.message, ...g });
      c = setCondition(c, { type: 'Reconciling', status: 'True', reason: 'WaitingForKind', message: s.message, ...g });
      c = removeCondition(c, 'Stalled');
      break;
    case 'invalid':
      c = setCondition(c, { type: 'Ready', status: 'False', reason: 'InvalidSpec', message: s.message, ...g });
      c = setCondition(c, { type: 'Stalled', status: 'True', reason: 'InvalidSpec', message: s.message, ...g });
      c = removeCondition(c, 'Reconciling');
      break;
  }
  return c;
}
