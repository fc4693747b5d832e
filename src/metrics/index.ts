// The face of src/metrics/: what other parts import from it.
// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export type { ReconcileObserver } from './observers.js';
export type { FlowOpsMetrics } from './registry.js';
export type { MetricsServer, MetricsServerOptions } from './server.js';
// faces:end
