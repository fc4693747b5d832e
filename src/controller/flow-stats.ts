import type { ReconcileReport } from '../engine/flow-reconciler.js';

/** Per-Flow outcome of each watched object's last reconcile: what the Flow's status counts. */
export class FlowStats {
  private readonly results = new Map<string, { ok: boolean; error?: string; at: string }>();
  lastError: string | undefined;
  lastReconcileTime: string | undefined;

  record(resourceKey: string, report: ReconcileReport | { outcome: 'failure'; error: string }): void {
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    this.lastReconcileTime = at;
    if (report.outcome === 'gone' || report.outcome === 'deleted') {
      this.results.delete(resourceKey);
      return;
    }
    if (report.outcome === 'suspended') return;
    const error = 'error' in report ? report.error : undefined;
    this.results.set(resourceKey, { ok: report.outcome === 'success', at, ...(error ? { error } : {}) });
    if (error) this.lastError = error;
  }

  forget(resourceKey: string): void {
    this.results.delete(resourceKey);
  }

  counts(): { succeeded: number; failed: number } {
    let succeeded = 0;
    let failed = 0;
    for (const r of this.results.values()) r.ok ? succeeded++ : failed++;
    return { succeeded, failed };
  }
}
