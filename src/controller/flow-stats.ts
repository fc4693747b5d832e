import type { ReconcileReport } from '../engine/index.js';

/** Per-Flow outcome of each watched object's last reconcile: what the Flow's status counts. */
export class FlowStats {
  private readonly results = new Map<string, { ok: boolean; ready: boolean; error?: string; at: string }>();
  lastReconcileTime: string | undefined;

  /**
   * The error of the object that failed most recently among those failing now; undefined once none
   * is. The Flow's status says what is wrong now, beside a Ready condition of the same moment: an
   * error that a later run fixed is history, kept in that object's RunHistory and Events.
   */
  get lastError(): string | undefined {
    let newest: { error?: string; at: string } | undefined;
    for (const r of this.results.values()) {
      if (!r.ok && r.error !== undefined && (!newest || r.at >= newest.at)) newest = r;
    }
    return newest?.error;
  }

  record(
    resourceKey: string,
    report: Pick<ReconcileReport, 'outcome' | 'ready'> | { outcome: 'failure'; error: string },
  ): void {
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    this.lastReconcileTime = at;
    if (report.outcome === 'gone' || report.outcome === 'deleted') {
      this.results.delete(resourceKey);
      return;
    }
    if (report.outcome === 'suspended') return;
    // A stalled object keeps the failure its last run recorded.
    if (report.outcome === 'stalled')
      return void (this.results.has(resourceKey) || this.results.set(resourceKey, { ok: false, ready: false, at }));
    const error = 'error' in report ? report.error : undefined;
    const ok = report.outcome === 'success';
    this.results.set(resourceKey, {
      ok,
      ready: ok && ('ready' in report ? report.ready !== false : true),
      at,
      ...(error ? { error } : {}),
    });
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
