import type { Command } from 'commander';
import type { LeaderWork, ShardedWatches } from '../runtime/index.js';
import { startRunUi, type RunUiFlags } from './run-ui.js';
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
import { parseShardCount } from '../runtime/shards/shard-count.js';
import { SetupError } from '../util/setup-error.js';
import { addAdmissionFlags, startAdmissionFromFlags, type AdmissionFlags } from './admission-flags.js';

export interface RunFlags extends ClusterFlags, RunUiFlags, AdmissionFlags {
  /** --view-url: links in notifications and commit statuses. */
  viewUrl?: string;
  leaseDuration: number;
  renewDeadline: number;
  retryPeriod: number;
  resyncPeriod: number;
  data: string;
  /** --shards / FLOWOPS_SHARDS (a string when it came from the environment). */
  shards: number | string;
}

/**
 * `flowops run`: the leader-elected controllers. Every replica campaigns for the Lease; the leader
 * runs the watches and enqueues reconcile keys on BullMQ, the others wait. Losing the lease stops
 * the leader work and exits with status 1, as controller-runtime does: a fresh process rejoins
 * the election with clean state instead of carrying on half-stopped. SIGTERM stops the work,
 * releases the lease (so a standby takes over at once) and exits 0.
 */
export function registerRunCommand(program: Command): void {
  addAdmissionFlags(addClusterFlags(program.command('run').description(summaryOf('run'))))
    .option('--lease-duration <d>', 'how long a lease is valid after its last renewal', durationFlag, 15_000)
    .option('--renew-deadline <d>', 'the leader gives up if it cannot renew within this', durationFlag, 10_000)
    .option('--retry-period <d>', 'how often candidates try and the leader renews', durationFlag, 2_000)
    .option('--resync-period <d>', 'how often the leader enqueues every watched key', durationFlag, 600_000)
    .option('--data <dir>', 'where Git sources are cloned (the leader polls them)', '/data')
    .option('--ui-listen <host:port>', 'serve the web view on its own listener instead of the metrics one')
    .option('--no-ui', 'do not serve the web view')
    .option('--view-url <url>', "the web view's public URL: notifications and commit statuses link to its pages")
    .option(
      '--shards <n>',
      'split the watched objects into n shards, each a Lease <lease-name>-shard-<i> that replicas share out ' +
        '(default: FLOWOPS_SHARDS or 1, one leader)',
      (v: string): number | string => parseShardCount(v),
      process.env.FLOWOPS_SHARDS ?? '1',
    )
    .action(async (flags: RunFlags) => {
      const { createLogger } = await import('../log/index.js');
      const log = createLogger({ command: 'run' }, flags.logFormat);
      let shardCount: number;
      try {
        // A value from --shards was parsed already; the default is FLOWOPS_SHARDS's text or "1".
        shardCount = typeof flags.shards === 'number' ? flags.shards : parseShardCount(flags.shards, 'FLOWOPS_SHARDS');
      } catch (err) {
        throw new SetupError(err instanceof Error ? err.message : String(err));
      }
      // Loaded here, not at start-up: BullMQ costs every other command (`up`, `validate`) time.
      const [
        { LeaderElector },
        { processMetrics },
        { BullProducer },
        { startLeaderWork },
        { createSources },
        { operatorsRunnable },
        { notifyRunnable },
        { previewRunnable },
      ] = await Promise.all([
        import('../kube/leader-election.js'),
        import('../metrics/registry.js'),
        import('../queue/bullmq-producer.js'),
        import('../runtime/leader-work.js'),
        import('../runtime/sources.js'),
        import('../operator/runtime.js'),
        import('../notify/index.js'),
        import('../preview/index.js'),
      ]);
      const { Manager, stopOnly } = await import('../manager/index.js');
      const kube = await kubeFrom(flags);
      isolateScripts(flags, [flags.data, flags.kubeconfig]);
      await checkRedis(redisUrlFrom(flags));
      const metrics = processMetrics();
      const producer = new BullProducer({
        redisUrl: redisUrlFrom(flags),
        name: flags.queue,
        prefix: flags.redisPrefix,
        log: log.child({ part: 'queue' }),
      });
      let work: LeaderWork | undefined;
      /** The singletons (Git pollers, Operators, notifications) come along where `singletons` is set. */
      const startWork = async (
        signal: AbortSignal,
        singletons: boolean,
        shards?: ShardedWatches,
      ): Promise<LeaderWork> => {
        const sa = flags.defaultServiceAccount;
        // The Git pollers are singletons too: only the leader fetches and syncs FlowSources.
        const sources = createSources(kube, log, { dataDir: flags.data, ...(sa ? { defaultServiceAccount: sa } : {}) });
        // Δ-controller Operators keep incremental pipeline state in memory: one runs them, the leader.
        const operators = operatorsRunnable({ kube, log, ...(sa ? { requireServiceAccount: true } : {}) });
        // Providers and Alerts: reads what the others record, so it never sits on a reconcile.
        const notifyLog = log.child({ part: 'notify' });
        const viewUrl = flags.viewUrl ? { viewUrl: flags.viewUrl } : {};
        const notify = notifyRunnable({ kube, log: notifyLog, registry: metrics.registry, ...viewUrl });
        // Pull-request previews: dry runs and forge comments only, so one replica, the singletons' holder.
        const previews = previewRunnable({
          kube,
          log: log.child({ part: 'previews' }),
          dataDir: flags.data,
          ...viewUrl,
        });
        return startLeaderWork(
          {
            kube,
            log,
            producer,
            metrics,
            tenancy: tenancyOf(flags),
            resyncEveryMs: flags.resyncPeriod,
            extra: singletons ? [sources, operators, notify, previews] : [],
            ...(shards ? { shards } : {}),
            ...(flags.sourceDir ? { sourceDir: flags.sourceDir } : {}),
          },
          signal,
        );
      };
      if (shardCount > 1) {
        const { runSharded } = await import('./run-sharded.js');
        const ui = await startRunUi(flags, kube, log.child({ part: 'ui' }));
        // Every replica serves the admission webhook, shard holder or not.
        const closeWebhook = await startAdmissionFromFlags(flags, kube, log.child({ part: 'admission-webhook' }));
        const closeBoth = async (): Promise<void> => {
          await closeWebhook();
          await ui.close();
        };
        await runSharded({
          flags,
          shards: shardCount,
          kube,
          log,
          producer,
          metrics,
          startWork,
          ui: { ...ui, close: closeBoth },
        });
        return;
      }
      const elector = new LeaderElector(kube, {
        namespace: flags.leaseNamespace,
        name: flags.leaseName,
        leaseDurationMs: flags.leaseDuration,
        renewDeadlineMs: flags.renewDeadline,
        retryPeriodMs: flags.retryPeriod,
        log: log.child({ part: 'leader-election' }),
        onStartedLeading: async (signal) => {
          metrics.leader.set({ identity: elector.identity }, 1);
          const w = await startWork(signal, true);
          // Leadership may have ended while the work was starting.
          if (signal.aborted) await w.stop();
          else work = w;
        },
        onStoppedLeading: async () => {
          await work?.stop();
          work = undefined;
          metrics.leader.set({ identity: elector.identity }, 0);
        },
        onNewLeader: (identity) => log.info({ leader: identity }, 'another replica leads'),
      });
      metrics.leader.set({ identity: elector.identity }, 0);
      // The parts in the order they start; the manager stops them in the reverse one (the
      // campaign first, so the Lease is released before the listeners close).
      const manager = new Manager(log);
      const ui = await startRunUi(flags, kube, log.child({ part: 'ui' }));
      // Every replica serves the webhook, leader or not: the Service spreads the API server's calls.
      const closeWebhook = await startAdmissionFromFlags(flags, kube, log.child({ part: 'admission-webhook' }));
      const server = await serveMetrics(flags, metrics, log, {
        // A standby is ready (it serves the webhook and the view); a leader once its watches have listed.
        ready: () => manager.ready(),
        beforeScrape: async () => metrics.queueDepth.set(await producer.depthNow()),
        ...(ui.route ? { routes: [ui.route] } : {}),
      });
      await manager.add(stopOnly('api-connections', () => kube.rest.close()));
      await manager.add(stopOnly('metrics', () => server.close()));
      await manager.add(stopOnly('ui', () => ui.close()));
      await manager.add(stopOnly('admission-webhook', closeWebhook));
      await manager.add(stopOnly('queue', () => producer.close()));
      let campaign: Promise<'stopped' | 'lost'> = Promise.resolve('stopped');
      await manager.add({
        name: 'leader-election',
        // The manager aborts this signal before it stops any part: the campaign ends and releases the Lease.
        start: (signal) => {
          log.info(
            { identity: elector.identity, lease: `${flags.leaseNamespace}/${flags.leaseName}` },
            'campaigning for leadership',
          );
          campaign = elector.run(signal);
        },
        stop: async () => {
          await campaign;
        },
        ready: () => work === undefined || work.flows.synced(),
      });
      await manager.start();
      onShutdown(log, () => manager.stop());
      if ((await campaign) === 'lost') {
        await manager.stop().catch(() => undefined);
        process.exit(1);
      }
    });
}
