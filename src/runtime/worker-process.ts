import type { KubeClient, KubeObject } from '../kube/index.js';
import { type TenancyPolicy, QueueRunCauses } from '../controller/index.js';
import type { Logger } from '../log/index.js';
import type { FlowOpsMetrics } from '../metrics/index.js';
import { BullConsumer, type BullConsumerOptions, BullProducer } from '../queue/index.js';
import { CommitExports } from './commit-exports.js';
import { workerFlows, type WorkerFlows } from './flow-parts.js';

export interface WorkerOptions {
  kube: KubeClient;
  log: Logger;
  /** --default-service-account / --no-cross-namespace-refs. */
  tenancy?: TenancyPolicy;
  queue: Omit<BullConsumerOptions, 'log'>;
  concurrency: number;
  metrics?: FlowOpsMetrics;
  sourceDir?: string;
  /** Where this worker keeps its own clones and exports of the commits Flows came from. */
  dataDir?: string;
}

export interface WorkerRuntime {
  flows: WorkerFlows;
  producer: BullProducer;
  stop(): Promise<void>;
}

/**
 * A `flowops worker`: the Flow registry, a read cache of the watched objects and the reconcile
 * handler, fed by a BullMQ consumer (no watch here enqueues; the leader's do). Jobs are taken only
 * after the first Flow list, so a key is never mistaken for one whose Flow was deleted.
 */
export async function startWorker(opts: WorkerOptions): Promise<WorkerRuntime> {
  const qopts = { ...opts.queue, log: opts.log.child({ part: 'queue' }) };
  const producer = new BullProducer(qopts);
  const consumer = new BullConsumer(qopts, producer);
  const flows = workerFlows({
    ...(opts.tenancy ? { tenancy: opts.tenancy } : {}),
    kube: opts.kube,
    log: opts.log,
    queue: producer,
    causes: new QueueRunCauses(producer),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    ...(opts.sourceDir ? { sourceDir: opts.sourceDir } : {}),
    ...(opts.dataDir ? { fetchSourceDir: commitExports(opts.kube, opts.log, opts.dataDir) } : {}),
  });
  flows.start();
  await flows.registry.synced();
  consumer.start(flows.handler.handle, { concurrency: opts.concurrency });
  return {
    flows,
    producer,
    stop: async () => {
      // Finish the jobs in hand first (their reconciles must not be cancelled), then the watches.
      await consumer.stop();
      await flows.stop();
      await producer.close();
    },
  };
}

function commitExports(
  kube: KubeClient,
  log: Logger,
  dataDir: string,
): (flow: KubeObject) => Promise<string | undefined> {
  const exports = new CommitExports({ kube, log: log.child({ part: 'sources' }), dataDir });
  return (flow) => exports.dirFor(flow);
}
