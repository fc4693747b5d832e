import { flowCrd, flowSourceCrd, runHistoryCrd, alertCrd, providerCrd, type FlowFile } from '../api/index.js';
import type { FlowSourceController, TenancyPolicy } from '../controller/index.js';
import { commitDirOf, startSources, type SourcesOptions } from './sources.js';
import { FIELD_MANAGER } from '../executors/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import type { FlowOpsMetrics } from '../metrics/index.js';
import { MemoryQueue, type BackoffOptions, type WorkQueue } from '../queue/index.js';
import { embeddedFlows, type EmbeddedFlows } from './flow-parts.js';
import { type OperatorManager, startOperators } from '../operator/index.js';

export interface ControllersOptions {
  kube: KubeClient;
  /** --default-service-account / --no-cross-namespace-refs. */
  tenancy?: TenancyPolicy;
  log: Logger;
  /** Defaults to an in-process queue (the embedded mode). */
  queue?: WorkQueue;
  concurrency?: number;
  /** Per-key backoff after a failed reconcile (default 0.5 s doubling to 5 min). */
  backoff?: BackoffOptions;
  /** Folder that relative chart / kustomize paths of Flows applied outside a Git source resolve against. */
  sourceDir?: string;
  /** Per-Flow folder for relative chart / kustomize paths (`flowops render`: found from each Flow's file); wins over sourceDir. */
  sourceDirFor?: (flow: KubeObject) => string | undefined;
  /** The file each Flow was defined in (`flowops render`), so errors name its lines. */
  fileFor?: (flow: KubeObject) => FlowFile | undefined;
  /** Apply FlowOps' own CRDs first (embedded mode; a cluster install has config/crd). */
  installCrds?: boolean;
  /** Record reconcile and step metrics here. */
  metrics?: FlowOpsMetrics;
  /** `{{ .Now }}` for templates (`flowops render` pins it); default the clock. */
  now?: () => string;
  /** Also run Δ-controller Operators (dcontroller.io/v1alpha1); with installCrds their CRD is applied too. */
  operators?: boolean;
  /** Run the FlowSource controller (Git poller + sync), keeping clones and exports in `dataDir`. */
  sources?: SourcesOptions;
}

export interface Controllers {
  /** The Flow controller's parts: registry, watches, reconcile handler. */
  flows: EmbeddedFlows;
  queue: WorkQueue;
  /** The Git poller, when `sources` was given: `trigger` syncs a source now. */
  sources?: FlowSourceController;
  /** The Operator meta-controller, when `operators` was set. */
  operators?: OperatorManager;
  stop(): Promise<void>;
}

/** The Flow meta-controller plus a worker pool, in one process: what `flowops up` runs. */
export async function startControllers(opts: ControllersOptions): Promise<Controllers> {
  const { kube, log } = opts;
  if (opts.installCrds) {
    for (const crd of [flowCrd(), flowSourceCrd(), runHistoryCrd(), providerCrd(), alertCrd()])
      await kube.apply(crd as unknown as KubeObject, { fieldManager: FIELD_MANAGER, force: true });
  }
  const queue = opts.queue ?? new MemoryQueue(log.child({ part: 'queue' }), opts.backoff);
  const sourcesDir = opts.sources?.dataDir;
  const flows = embeddedFlows({
    kube,
    log,
    queue,
    ...(opts.sourceDir ? { sourceDir: opts.sourceDir } : {}),
    ...(opts.sourceDirFor
      ? { sourceDirFor: opts.sourceDirFor }
      : sourcesDir
        ? { sourceDirFor: (flow: KubeObject) => commitDirOf(sourcesDir, flow) }
        : {}),
    ...(opts.fileFor ? { fileFor: opts.fileFor } : {}),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    ...(opts.tenancy ? { tenancy: opts.tenancy } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  queue.start(flows.handler.handle, { concurrency: opts.concurrency ?? 16 });
  flows.start();
  const operators = opts.operators
    ? await startOperators({
        kube,
        log,
        installCrd: opts.installCrds === true,
        ...(opts.tenancy?.defaultServiceAccount ? { requireServiceAccount: true } : {}),
      })
    : undefined;
  const sources = opts.sources ? startSources(kube, log, opts.sources) : undefined;
  return {
    flows,
    queue,
    ...(operators ? { operators } : {}),
    ...(sources ? { sources } : {}),
    stop: async () => {
      await sources?.stop();
      await operators?.stop();
      await flows.stop();
      await queue.stop();
    },
  };
}
