// The queue's handler (where reconciles run: `flowops up` and workers): decodes a key, finds the
// Flow's current definition, fetches the Flow's commit when the steps read files from it, and runs
// the engine. It holds no watches.

import type { FlowReconciler } from '../engine/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import type { ReconcileObserver } from '../metrics/index.js';
import type { ReconcileResult } from '../queue/index.js';
import type { FlowRegistry } from './flow-registry.js';
import type { OutcomeSink } from './flow-status-reporter.js';
import { decodeKey } from './keys.js';
import { readsSourceFiles } from './source-files.js';
import type { RunCauseLog } from './run-causes.js';
import type { GenerationChooser } from './generation-choice.js';

export interface ReconcileHandlerDeps {
  kube: KubeClient;
  registry: FlowRegistry;
  reconciler: FlowReconciler;
  /**
   * Fetches a Flow's source folder when it is not on this machine (a worker process: the
   * leader's clones are in another pod). Awaited before each reconcile; memoised by the provider.
   */
  fetchSourceDir?: (flow: KubeObject) => Promise<string | undefined>;
  /** Told the outcome and duration of every reconcile (metrics). */
  observer?: ReconcileObserver;
  /** Told each outcome, for the Flow's status (in the process that writes it). */
  outcomes?: OutcomeSink;
  /** Why each key was enqueued (the watches tell it, here or through Redis); absent: every run is a full run. */
  causes?: RunCauseLog;
  /** Picks the generation of the Flow each object is reconciled by (spec.rollout); absent: the newest. */
  generations?: GenerationChooser;
}

export class ReconcileHandler {
  private readonly stopping = new AbortController();

  constructor(private readonly deps: ReconcileHandlerDeps) {}

  /** Cancels the reconciles in flight (their steps see an aborted signal). */
  cancel(): void {
    this.stopping.abort();
  }

  /** One reconcile of one watched object by one Flow; a thrown error is one nothing foresaw. */
  readonly handle = async (key: string, seen?: string): Promise<ReconcileResult | void> => {
    const { registry, reconciler } = this.deps;
    const k = decodeKey(key);
    // A key may name a Flow this process has not seen yet (its watch lags the one that enqueued it).
    const entry = registry.get(k.flowNamespace, k.flowName) ?? (await registry.fetch(k.flowNamespace, k.flowName));
    if (!entry || entry.flow.metadata.deletionTimestamp) {
      // The Flow is gone or going: nothing may keep the object from being deleted.
      await reconciler.release(k.resource);
      return;
    }
    const { cause, triggers } = (await this.deps.causes?.take(key)) ?? { cause: 'other' as const, triggers: [] };
    const resourceKey = `${k.resource.namespace ?? ''}/${k.resource.name}`;
    if (!entry.def) {
      const obj = await this.deps.kube.get(k.resource);
      if (obj?.metadata.deletionTimestamp) await reconciler.release(k.resource);
      return;
    }
    const t0 = performance.now();
    let result = 'failure';
    try {
      const fetched =
        this.deps.fetchSourceDir && readsSourceFiles(entry.def.spec)
          ? await this.deps.fetchSourceDir(entry.flow)
          : undefined;
      const newest = fetched ? { ...entry.def, sourceDir: fetched } : entry.def;
      const chosen = this.deps.generations
        ? await this.deps.generations.definitionFor(entry, newest, k.resource, seen)
        : { def: newest };
      const def = chosen.def;
      const report =
        'stalled' in chosen
          ? await reconciler.stall(def, k.resource, chosen.stalled)
          : await reconciler.reconcile(def, k.resource, this.stopping.signal, seen, cause, triggers);
      result = report.outcome;
      const told = report.outcome === 'failure' ? { outcome: 'failure' as const, error: report.error ?? '' } : report;
      this.deps.outcomes?.record(entry, resourceKey, told);
      // The engine's result goes to the queue as it is: a resync, a backoff, or not again.
      return report.result;
    } catch (err) {
      this.deps.outcomes?.record(entry, resourceKey, {
        outcome: 'failure',
        error: err instanceof Error ? err.message : String(err),
      });
      throw err;
    } finally {
      this.deps.observer?.reconciled(entry.key, result, (performance.now() - t0) / 1000);
    }
  };
}
