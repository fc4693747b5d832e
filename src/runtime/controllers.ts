import { flowCrd } from '../api/crd.js';
import { FlowManager } from '../controller/flow-manager.js';
import { FlowReconciler } from '../engine/flow-reconciler.js';
import { FIELD_MANAGER } from '../executors/types.js';
import type { KubeClient } from '../kube/client.js';
import { EventRecorder } from '../kube/events.js';
import type { KubeObject } from '../kube/types.js';
import type { Logger } from '../log/index.js';
import { MemoryQueue } from '../queue/memory-queue.js';
import type { BackoffOptions, WorkQueue } from '../queue/types.js';

export interface ControllersOptions {
  kube: KubeClient;
  log: Logger;
  /** Defaults to an in-process queue (the embedded mode). */
  queue?: WorkQueue;
  concurrency?: number;
  /** Per-key backoff after a failed reconcile (default 0.5 s doubling to 5 min). */
  backoff?: BackoffOptions;
  /** Folder that relative chart / kustomize paths of Flows applied outside a Git source resolve against. */
  sourceDir?: string;
  /** Apply FlowOps' own CRDs first (embedded mode; a cluster install has config/crd). */
  installCrds?: boolean;
}

export interface Controllers {
  manager: FlowManager;
  queue: WorkQueue;
  stop(): Promise<void>;
}

/** The Flow meta-controller plus a worker pool, in one process: what `flowops up` runs. */
export async function startControllers(opts: ControllersOptions): Promise<Controllers> {
  const { kube, log } = opts;
  if (opts.installCrds) await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: FIELD_MANAGER, force: true });
  const queue = opts.queue ?? new MemoryQueue(log.child({ part: 'queue' }), opts.backoff);
  let manager: FlowManager | undefined;
  const reconciler = new FlowReconciler({
    kube,
    events: new EventRecorder(kube, 'flowops'),
    log: log.child({ part: 'engine' }),
    fieldManager: FIELD_MANAGER,
    read: (ref) => manager?.cached(ref),
  });
  const sourceDir = opts.sourceDir;
  manager = new FlowManager({
    kube,
    queue,
    reconciler,
    log: log.child({ part: 'controller' }),
    fieldManager: FIELD_MANAGER,
    ...(sourceDir ? { sourceDirFor: () => sourceDir } : {}),
  });
  queue.start(manager.handle, { concurrency: opts.concurrency ?? 16 });
  manager.startWatches();
  return {
    manager,
    queue,
    stop: async () => {
      await manager.stop();
      await queue.stop();
    },
  };
}
