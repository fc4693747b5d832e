/**
 * Set by `flowops reconcile` (Flux's reconcile.fluxcd.io/requestedAt): a new value makes a Flow run
 * every watched object again, and a FlowSource sync now; a FlowSource then writes the value it
 * answered into status.lastHandledReconcileAt, which `--wait` waits for.
 */
export const RECONCILE_REQUEST_ANNOTATION = 'flowops.io/reconcile-requested-at';
