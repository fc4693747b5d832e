// A Flow's own status: the outcome of each watched object's last run (counted per Flow) turned
// into kstatus conditions and counts, written at most every 200 ms per Flow. Runs where the
// watches run; the outcomes come from the reconcile handler in the same process (`flowops up`)
// or from the Ready conditions workers write on the watched objects (the leader).

import { findCondition, type KubeClient, type KubeObject } from '../kube/index.js';
import type { ReconcileReport } from '../engine/index.js';
import type { Logger } from '../log/index.js';
import type { DeclarativeController } from '../operator/index.js';
import type { FlowEntry } from './flow-registry.js';
import { FlowStats } from './flow-stats.js';
import { FlowStatusWriter, type FlowStatusSummary } from './flow-status-writer.js';

/** What the watches know about a Flow that its status reports. */
export interface WatchFacts {
  watched: number;
  /** The watched kind is not served (yet). */
  kindMissing?: string | undefined;
  /** Set for a pipeline Flow: its controller's health is the Flow's. */
  pipeline?: DeclarativeController | undefined;
}

/** Where reconcile outcomes are told (the reporter; nothing on a worker). */
export interface OutcomeSink {
  record(
    entry: FlowEntry,
    resourceKey: string,
    report: Pick<ReconcileReport, 'outcome' | 'ready'> | { outcome: 'failure'; error: string },
  ): void;
}

export interface FlowStatusReporterDeps {
  kube: KubeClient;
  log: Logger;
  fieldManager: string;
  facts(entry: FlowEntry): WatchFacts;
  /** A sharded replica writes only the status of the Flows its shards hold (see docs/sharding.md). */
  writes?(entry: FlowEntry): boolean;
  /** The Flow's generations and rollout (src/rollout), written with the rest of its status. */
  rolloutStatus?(entry: FlowEntry): FlowStatusSummary['rollout'];
}

export class FlowStatusReporter implements OutcomeSink {
  private readonly stats = new Map<string, FlowStats>();
  private readonly writer: FlowStatusWriter;

  constructor(private readonly deps: FlowStatusReporterDeps) {
    this.writer = new FlowStatusWriter(deps.kube, deps.log, deps.fieldManager);
  }

  record(
    entry: FlowEntry,
    resourceKey: string,
    report: Pick<ReconcileReport, 'outcome' | 'ready'> | { outcome: 'failure'; error: string },
  ): void {
    this.statsOf(entry).record(resourceKey, report);
    this.schedule(entry);
  }

  /** A worker's verdict, as the Ready condition it wrote on the watched object (the leader's only source). */
  recordReadyCondition(entry: FlowEntry, obj: KubeObject): void {
    const ready = findCondition(obj, 'Ready');
    if (!ready || ready.status === 'Unknown') return;
    // Children not ready yet is a successful run whose objects are still coming up, not a failure.
    const report =
      ready.status === 'True'
        ? { outcome: 'success' as const, ready: true }
        : ready.reason === 'ChildrenNotReady'
          ? { outcome: 'success' as const, ready: false }
          : { outcome: 'failure' as const, error: ready.message ?? '' };
    this.record(entry, resourceKeyOf(obj), report);
  }

  forget(entry: FlowEntry, obj: KubeObject): void {
    this.statsOf(entry).forget(resourceKeyOf(obj));
    this.schedule(entry);
  }

  removed(entry: FlowEntry): void {
    this.stats.delete(entry.key);
  }

  schedule(entry: FlowEntry): void {
    if (entry.flow.metadata.deletionTimestamp || this.deps.writes?.(entry) === false) return;
    this.writer.schedule(entry.key, entry.flow, () => {
      const summary = summarize(entry, this.statsOf(entry), this.deps.facts(entry));
      const rollout = this.deps.rolloutStatus?.(entry);
      return rollout ? { ...summary, rollout } : summary;
    });
  }

  async stop(): Promise<void> {
    await this.writer.stop();
  }

  private statsOf(entry: FlowEntry): FlowStats {
    let s = this.stats.get(entry.key);
    if (!s) this.stats.set(entry.key, (s = new FlowStats()));
    return s;
  }
}

export const resourceKeyOf = (obj: KubeObject): string => `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;

function summarize(e: FlowEntry, stats: FlowStats, facts: WatchFacts): FlowStatusSummary {
  if (facts.pipeline) return summarizePipeline(e, facts.pipeline);
  const { succeeded, failed, notReady } = stats.counts();
  const { watched } = facts;
  const base = {
    generation: e.flow.metadata.generation ?? 0,
    watched,
    succeeded,
    failed,
    ready: succeeded - notReady,
    notReady,
    ...(stats.lastError ? { lastError: stats.lastError } : {}),
    ...(stats.lastReconcileTime ? { lastReconcileTime: stats.lastReconcileTime } : {}),
  };
  if (e.invalid) return { ...base, state: 'invalid', message: e.invalid };
  if (e.def?.spec.suspend) return { ...base, state: 'suspended', message: 'reconciliation is suspended' };
  if (facts.kindMissing)
    return { ...base, state: 'waiting', message: `waiting for the watched kind: ${facts.kindMissing}` };
  if (failed)
    return { ...base, state: 'failing', message: `${failed} of ${watched} resources failed: ${stats.lastError ?? ''}` };
  return {
    ...base,
    state: 'ready',
    message: `${succeeded} of ${watched} resources reconciled${notReady ? `, ${notReady} with children not ready` : ''}`,
  };
}

/** A pipeline Flow reports its controller's health: Stalled on a setup error, failing on runtime errors. */
function summarizePipeline(e: FlowEntry, ctl: DeclarativeController): FlowStatusSummary {
  const h = ctl.health;
  const lastError = h.lastErrors.at(-1);
  const base = {
    generation: e.flow.metadata.generation ?? 0,
    watched: 0,
    succeeded: 0,
    failed: h.errorCount,
    ready: 0,
    notReady: 0,
    ...(lastError ? { lastError } : {}),
  };
  if (h.state === 'critical') return { ...base, state: 'invalid', message: `pipeline failed to start: ${h.critical}` };
  if (h.state === 'failing') return { ...base, state: 'failing', message: `pipeline errors: ${lastError ?? ''}` };
  return { ...base, state: 'ready', message: 'pipeline is running' };
}
