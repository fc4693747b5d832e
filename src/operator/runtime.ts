import type { KubeClient, KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { operatorCrd } from './operator-crd.js';
import { OperatorManager } from './operator-manager.js';
import { crdViewBackend, type ViewBackend } from './view-backend.js';

export interface OperatorRuntimeOptions {
  kube: KubeClient;
  log: Logger;
  /** Apply the Operator CRD first (embedded mode). */
  installCrd?: boolean;
  /** Where views live (default: CRD-backed views on the same server). */
  views?: ViewBackend;
  /** --default-service-account is set: Operators must name their ServiceAccount. */
  requireServiceAccount?: boolean;
}

/**
 * The Operator meta-controller as a leader-only runnable (`flowops run`): a declarative pipeline
 * keeps its incremental state in one process, so, like Δ-controller's own manager, it runs on
 * one replica, the leader, and moves with the Lease.
 */
export function operatorsRunnable(opts: OperatorRuntimeOptions): {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
} {
  let manager: OperatorManager | undefined;
  return {
    name: 'operators',
    start: async () => {
      manager = await startOperators(opts);
    },
    stop: async () => {
      await manager?.stop();
      manager = undefined;
    },
  };
}

/** Starts the Operator meta-controller: what `flowops up` adds beside the Flow controllers. */
export async function startOperators(opts: OperatorRuntimeOptions): Promise<OperatorManager> {
  if (opts.installCrd) {
    await opts.kube.apply(operatorCrd() as unknown as KubeObject, { fieldManager: 'flowops', force: true });
    opts.kube.discovery.invalidate();
  }
  const manager = new OperatorManager({
    kube: opts.kube,
    views: opts.views ?? crdViewBackend(opts.kube),
    log: opts.log.child({ part: 'operators' }),
    ...(opts.requireServiceAccount ? { requireServiceAccount: true } : {}),
  });
  manager.start();
  return manager;
}
