import type { ReconcileReport } from '../engine/flow-reconciler.js';

/** Per-Flow outcome of each watched object's last reconcile: what the Flow's status counts. */
export class FlowStats {
  private readonly results = new Map<string, { ok: boolean; ready: boolean; error?: string; at: string }>();
  lastError: string | undefined;
  lastReconcileTime: string | undefined;

  record(resourceKey: string, report: Pick<ReconcileReport, 'outcome' | 'ready'> | { outcome: 'failure'; error: string }): void {
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    this.lastReconcileTime = at;
    if (report.outcome === 'gone' || report.outcome === 'deleted') {
      this.results.delete(resourceKey);
      return;
    }
    if (report.outcome === 'suspended') return;
    // A stalled object keeps the failure its last run recorded.
    if (report.outcome === 'stalled') return void (this.results.has(resourceKey) || this.results.set(resourceKey, { ok: false, ready: false, at }));
    const error = 'error' in report ? report.error : undefined;
    const ok = report.outcome === 'success';
    this.results.set(resourceKey, { ok, ready: ok && ('ready' in report ? report.ready !== false : true), at, ...(error ? { error } : {}) });
    if (error) this.lastError = error;
  }

  forget(resourceKey: string): void {
    this.results.delete(resourceKey);
  }

  /** notReady: succeeded runs whose children are not all ready yet (a subset of succeeded). */
  counts(): { succeeded: number; failed: number; notReady: number } {
    let succeeded = 0;
    let failed = 0;
    let notReady = 0;
    for (const r of this.results.values()) {
      if (!r.ok) failed++;
      else {
        succeeded++;
        if (!r.ready) notReady++;
      }
    }
    return { succeeded, failed, notReady };
  }
}
