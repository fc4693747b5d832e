import type { Command } from 'commander';
import { resolve } from 'node:path';
import {
  addClusterFlags,
  checkRedis,
  durationFlag,
  kubeFrom,
  redisUrlFrom,
  serveMetrics,
  type ClusterFlags,
} from './cluster-flags.js';
import { onShutdown } from './shutdown.js';
import { isolateScripts, tenancyOf } from './tenancy-flags.js';
import { summaryOf } from './command-table.js';
import type { WorkerRuntime } from '../runtime/index.js';
import { SetupError } from '../util/setup-error.js';

interface WorkerFlags extends ClusterFlags {
  concurrency: string;
  lockDuration: number;
  stalledInterval?: number;
  data: string;
}

/**
 * `flowops worker`: takes reconcile jobs from BullMQ and runs them. Needs no lease (the lease
 * flags are accepted so one flag set serves both Deployments). SIGTERM stops taking jobs, lets the
 * running ones finish, then exits 0; a killed worker's jobs are picked up by the others once their
 * lock expires (--lock-duration).
 */
export function registerWorkerCommand(program: Command): void {
  addClusterFlags(program.command('worker').description(summaryOf('worker')))
    .option('--concurrency <n>', 'reconciles run at once by this process', '16')
    .option(
      '--lock-duration <d>',
      'a job whose worker stops renewing its lock for this long is given to another worker',
      durationFlag,
      30_000,
    )
    .option(
      '--data <dir>',
      'where this worker fetches the Git commits Flows came from (for their chart and kustomize paths)',
      '/data',
    )
    .option('--stalled-interval <d>', 'how often to look for such jobs (default: the lock duration)', durationFlag)
    .action(async (flags: WorkerFlags) => {
      const { createLogger } = await import('../log/index.js');
      const log = createLogger({ command: 'worker' }, flags.logFormat);
      // Loaded here, not at start-up: BullMQ costs every other command (`up`, `validate`) time.
      const [{ processMetrics }, { startWorker }] = await Promise.all([
        import('../metrics/registry.js'),
        import('../runtime/worker-process.js'),
      ]);
      const { Manager, stopOnly } = await import('../manager/index.js');
      const concurrency = Number(flags.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new SetupError(`--concurrency: expected a positive integer, got "${flags.concurrency}"`);
      const kube = await kubeFrom(flags);
      isolateScripts(flags, [flags.data, flags.kubeconfig]);
      await checkRedis(redisUrlFrom(flags));
      const metrics = processMetrics();
      const manager = new Manager(log);
      let worker: WorkerRuntime | undefined;
      const server = await serveMetrics(flags, metrics, log, {
        ready: () => manager.ready(),
        beforeScrape: async () => {
          if (worker) metrics.queueDepth.set(await worker.producer.depthNow());
        },
      });
      // Started in this order and stopped in the reverse one: the jobs in hand finish before the
      // metrics listener and the API connections go.
      await manager.add(stopOnly('api-connections', () => kube.rest.close()));
      await manager.add(stopOnly('metrics', () => server.close()));
      await manager.add({
        name: 'reconciles',
        start: async () => {
          worker = await startWorker({
            kube,
            log,
            tenancy: tenancyOf(flags),
            concurrency,
            metrics,
            queue: {
              redisUrl: redisUrlFrom(flags),
              name: flags.queue,
              prefix: flags.redisPrefix,
              lockDurationMs: flags.lockDuration,
              ...(flags.stalledInterval ? { stalledIntervalMs: flags.stalledInterval } : {}),
            },
            ...(flags.sourceDir ? { sourceDir: resolve(flags.sourceDir) } : {}),
            dataDir: resolve(flags.data),
          });
        },
        stop: async () => worker?.stop(),
        ready: () => worker?.flows.synced() ?? false,
      });
      await manager.start();
      log.info({ concurrency, queue: flags.queue }, 'worker started');
      onShutdown(log, () => manager.stop());
    });
}
