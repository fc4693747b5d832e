import { FlowManager } from '../controller/flow-manager.js';
import { FlowReconciler } from '../engine/flow-reconciler.js';
import { FIELD_MANAGER } from '../executors/types.js';
import type { KubeClient } from '../kube/client.js';
import { EventRecorder } from '../kube/events.js';
import type { KubeObject } from '../kube/types.js';
import type { Logger } from '../log/index.js';
import { reconcileMetrics, stepMetrics } from '../metrics/observers.js';
import type { FlowOpsMetrics } from '../metrics/registry.js';
import type { WorkQueue } from '../queue/types.js';

export interface FlowManagerParts {
  kube: KubeClient;
  log: Logger;
  queue: Pick<WorkQueue, 'add'>;
  mode?: 'full' | 'leader' | 'registry';
  metrics?: FlowOpsMetrics;
  sourceDir?: string;
  /** Per-Flow source folder (a Git export of the Flow's commit); falls back to sourceDir. */
  sourceDirFor?: (flow: KubeObject) => string | undefined;
  /** Fetches a Flow's commit when this process has no copy (workers); see FlowManagerDeps. */
  fetchSourceDir?: (flow: KubeObject) => Promise<string | undefined>;
}

/** The reconciler and the meta-controller wired together, the same way in every process kind. */
export function createFlowManager(p: FlowManagerParts): FlowManager {
  let manager: FlowManager | undefined;
  const reconciler = new FlowReconciler({
    kube: p.kube,
    events: new EventRecorder(p.kube, 'flowops'),
    log: p.log.child({ part: 'engine' }),
    fieldManager: FIELD_MANAGER,
    read: (ref, seen) => manager?.cached(ref, seen),
    ...(p.metrics ? { observer: stepMetrics(p.metrics) } : {}),
  });
  const { sourceDir, sourceDirFor } = p;
  const dirFor = sourceDirFor ?? (sourceDir ? () => sourceDir : undefined);
  manager = new FlowManager({
    kube: p.kube,
    queue: p.queue,
    reconciler,
    log: p.log.child({ part: 'controller' }),
    fieldManager: FIELD_MANAGER,
    ...(dirFor ? { sourceDirFor: (flow: KubeObject) => dirFor(flow) ?? sourceDir } : {}),
    ...(p.fetchSourceDir ? { fetchSourceDir: p.fetchSourceDir } : {}),
    ...(p.mode ? { mode: p.mode } : {}),
    ...(p.metrics ? { observer: reconcileMetrics(p.metrics) } : {}),
  });
  return manager;
}
