import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * FlowOps' Prometheus metrics, named the way Flux (gotk_*) and controller-runtime name theirs.
 * One registry per process; `createMetrics` is called once by each command (tests may make more).
 */
export interface FlowOpsMetrics {
  registry: Registry;
  reconcileTotal: Counter<'flow' | 'result'>;
  reconcileDuration: Histogram<'flow'>;
  queueDepth: Gauge;
  stepDuration: Histogram<'type' | 'result'>;
  gitFetchDuration: Histogram<'source' | 'result'>;
  leader: Gauge<'identity'>;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): FlowOpsMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    reconcileTotal: new Counter({
      name: 'flowops_reconcile_total',
      help: 'Reconciles by Flow and result (success, failure, deleted, gone, suspended).',
      labelNames: ['flow', 'result'],
      registers,
    }),
    reconcileDuration: new Histogram({
      name: 'flowops_reconcile_duration_seconds',
      help: 'Time one reconcile of one watched object took.',
      labelNames: ['flow'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    queueDepth: new Gauge({ name: 'flowops_queue_depth', help: 'Reconcile keys waiting plus running.', registers }),
    stepDuration: new Histogram({
      name: 'flowops_step_duration_seconds',
      help: 'Time of one step attempt by step type and result.',
      labelNames: ['type', 'result'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    gitFetchDuration: new Histogram({
      name: 'flowops_git_fetch_duration_seconds',
      help: 'Time of one Git fetch by source and result.',
      labelNames: ['source', 'result'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    leader: new Gauge({
      name: 'flowops_leader',
      help: '1 while this process holds the leader Lease, else 0.',
      labelNames: ['identity'],
      registers,
    }),
  };
}

/**
 * The process-wide metrics, so code far from the commands (Git sources) can record without
 * being handed a registry.
 */
let current: FlowOpsMetrics | undefined;

export function processMetrics(): FlowOpsMetrics {
  current ??= createMetrics();
  return current;
}

/** Records one Git fetch (called by src/source). */
export function observeGitFetch(source: string, seconds: number, result: 'success' | 'failure' = 'success'): void {
  processMetrics().gitFetchDuration.observe({ source, result }, seconds);
}

/** Times `fetch` and records it as a Git fetch of `source`, whether it succeeds or throws. */
export async function timeGitFetch<T>(source: string, fetch: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const r = await fetch();
    observeGitFetch(source, (performance.now() - t0) / 1000, 'success');
    return r;
  } catch (err) {
    observeGitFetch(source, (performance.now() - t0) / 1000, 'failure');
    throw err;
  }
}
