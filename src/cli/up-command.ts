import type { IncomingMessage } from 'node:http';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { addServerFlags, startEmbedded, type ServerFlags } from './apiserver-command.js';
import { onShutdown } from './shutdown.js';
import { addTenancyFlags, isolateScripts, tenancyOf, type TenancyFlags } from './tenancy-flags.js';
import { addSimulateFlags, startSimulatorIfWanted, type SimulateFlags } from './simulate-flags.js';
import type { Logger } from '../log/index.js';
import type { MergeResult } from '../kube/kubeconfig-merge.js';
import { isLoopback } from './listen.js';
import type { EmbeddedCredentials } from '../kube/kubeconfig.js';
import { summaryOf } from './command-table.js';
import { addVerifyFlags, embeddedVerifyOf, type VerifyFlags } from './verify-flags.js';
import { addKcmFlags, kubeControllerManagerOf, kubeControllerManagerPart, type KcmFlags } from './kcm-flags.js';


/** The kubeconfig kubectl reads first (KUBECONFIG's first file, else ~/.kube/config) gets the context; a failure is only logged. */
async function mergeUserKubeconfig(serverUrl: string, credentials: EmbeddedCredentials | undefined, log: Logger): Promise<MergeResult | undefined> {
  const [{ mergeKubeconfigContext }, { homedir }, { delimiter, join: joinPath }] = await Promise.all([import('../kube/kubeconfig-merge.js'), import('node:os'), import('node:path')]);
  const file = (process.env.KUBECONFIG ?? '').split(delimiter).find(Boolean) ?? joinPath(process.env.HOME ?? homedir(), '.kube', 'config');
  try {
    return mergeKubeconfigContext(file, 'flowops', serverUrl, credentials);
  } catch (err) {
    log.warn({ err, file }, 'could not add the flowops context to the kubeconfig');
    return undefined;
  }
}

/** `flowops up` (what `npm start` runs): the embedded API server, the controllers, the Git endpoint, in one process. */
export function registerUpCommand(program: Command): void {
  addKcmFlags(addVerifyFlags(addTenancyFlags(addSimulateFlags(addServerFlags(program.command('up').description(summaryOf('up')))))))
    .option('--source-dir <dir>', 'folder that relative chart and kustomize paths in Flows resolve against', 'repos-example')
    .option('--no-auth', 'serve plain HTTP and allow every request, as before authentication existed (only on a machine nobody else can reach)')
    .option('--no-kubeconfig-merge', 'do not add the "flowops" context to your kubeconfig (KUBECONFIG or ~/.kube/config)')
    .action(async (flags: ServerFlags & SimulateFlags & TenancyFlags & VerifyFlags & KcmFlags & { sourceDir: string; kubeconfigMerge: boolean }) => {
      // Checked before anything starts: a wrong keys file is a usage error, not a refused push later.
      const verify = await embeddedVerifyOf(flags);
      const kcmBinary = await kubeControllerManagerOf(flags);
      // The API server first, so that /healthz answers before the controllers' modules are loaded;
      // those are loaded here, not at start-up, so that other commands and --help do not pay for them.
      const { createLogger } = await import('../log/index.js');
      const log = createLogger({ command: 'up' }, flags.logFormat);
      // Auth on unless --no-auth: the listener may be shared (other local users, a forwarded port).
      const { server, kubeconfig, credentials } = await startEmbedded(flags, log);
      // The parts of `up`, stopped in the reverse of the order they are added: the web view first,
      // the API server last, as a cluster's components go before its API server.
      const { Manager, stopOnly } = await import('../manager/index.js');
      const manager = new Manager(log);
      await manager.add(stopOnly('apiserver', () => server.close()));
      // A Flow, FlowSource or Operator written here gets the checks FlowOps' webhook makes on a cluster.
      const { EmbeddedChecks } = await import('../admission-webhook/embedded-checks.js');
      server.objects.addAdmission(new EmbeddedChecks(server));
      process.stdout.write(`Embedded Kubernetes API listening on ${server.url}; starting the controllers and the Git source…\n`);
      const [{ KubeClient }, { startControllers }, { startEmbeddedGit }, { processMetrics }, { metricsRoute }, { uiRoute }, { readCommitFile }, { commitDirOf }, { uiTokenGuard, carriesAdminToken }, { commitPreviewer, commitReader }] = await Promise.all([
        import('../kube/client.js'),
        import('../runtime/controllers.js'),
        import('../runtime/embedded-git.js'),
        import('../metrics/registry.js'),
        import('../metrics/route.js'),
        import('../ui-server/route.js'),
        import('../ui-server/commit-file.js'),
        import('../runtime/sources.js'),
        import('../ui-server/token-guard.js'),
        import('../ui-server/commit-preview.js'),
      ]);
      const kube = KubeClient.fromKubeconfig(kubeconfig);
      // Its data folder holds the admin kubeconfig and the server's database: never a script's to read.
      isolateScripts(flags, [flags.data, kubeconfig]);
      // The web view, on the same loopback listener, mounted first so that an open page reconnects
      // as soon as the server is back; it reads as the admin kubeconfig of `up`.
      // "Sync now" reaches the Git poller once it has started (a click before that is a no-op: the
      // poller's first sync comes anyway).
      let syncNow: ((namespace: string, name: string) => void) | undefined;
      const sourcesDir = join(resolve(flags.data), 'sources');
      const ui = uiRoute({
        kube,
        log,
        loopbackOnly: isLoopback(server.host),
        syncNow: (ns, n) => (syncNow ? syncNow(ns, n) : undefined),
        commitFile: (obj) => readCommitFile(commitDirOf(sourcesDir, obj), obj.metadata.annotations?.['flowops.io/path']),
        previewCommit: commitPreviewer(sourcesDir),
        readCommit: commitReader(sourcesDir),
        // With auth on, the admin token's holder reads as the admin; a ServiceAccount token signs in as itself.
        ...(credentials ? { access: 'per-user' as const, admin: (req: IncomingMessage) => carriesAdminToken(req, credentials.token) } : {}),
      });
      const guard = credentials ? uiTokenGuard(credentials.token, ui.users) : undefined;
      server.addRoute(async (req, res, url) => (guard ? await guard(req, res, url) : false) || ui.handle(req, res, url));
      const dataDir = resolve(flags.data);
      const metrics = processMetrics();
      // Beside the controllers, as a cluster's kubelet and kube-controller-manager run beside its API server.
      const simulator = await startSimulatorIfWanted(flags, kube, log, credentials?.caCert, Boolean(kcmBinary));
      if (simulator) await manager.add(stopOnly('simulator', () => simulator.stop()));
      const kcm = kcmBinary && (await kubeControllerManagerPart({ binary: kcmBinary, dataDir, server, credentials, log }));
      if (kcm) await manager.add(kcm);
      const controllers = await startControllers({ kube, log, metrics, tenancy: tenancyOf(flags), installCrds: true, operators: true, sourceDir: resolve(flags.sourceDir), sources: { dataDir: sourcesDir, ...(flags.defaultServiceAccount ? { defaultServiceAccount: flags.defaultServiceAccount } : {}) } });
      await manager.add(stopOnly('controllers', () => controllers.stop()));
      syncNow = (ns, n) => controllers.sources?.trigger(ns, n);
      // Providers and Alerts, beside the controllers: it reads their Events and status, never waits on them.
      const { Notifier } = await import('../notify/index.js');
      const notifier = new Notifier({ kube, log: log.child({ part: 'notify' }), registry: metrics.registry, viewUrl: server.httpUrl });
      await manager.add({ name: 'notify', start: () => notifier.start(), stop: () => notifier.stop() });
      // Pull-request previews for the FlowSources with spec.previews: dry runs only, nothing applied.
      const { PreviewPoller } = await import('../preview/index.js');
      const previews = new PreviewPoller({ kube, log: log.child({ part: 'previews' }), dataDir, viewUrl: server.httpUrl });
      await manager.add({ name: 'previews', start: () => previews.start(), stop: () => previews.stop() });
      await manager.add(stopOnly('ui', () => ui.stop()));
      await manager.start();
      // One process is always the leader; /metrics sits beside /healthz and /readyz on the API
      // server's own listener, as kube-apiserver serves its own.
      metrics.leader.set({ identity: 'up' }, 1);
      server.addRoute(metricsRoute(metrics.registry, async () => metrics.queueDepth.set(controllers.queue.depth())), { behindAuth: true });
      // Like kind and k3d: a "flowops" context in the user's kubeconfig, unless told where to write one.
      const merged = flags.kubeconfigMerge && !flags.kubeconfig ? await mergeUserKubeconfig(server.url, credentials, log) : undefined;
      const git = await startEmbeddedGit({ server, kube, log, sources: controllers.sources!, dataDir: join(dataDir, 'git'), seedFrom: resolve(flags.sourceDir), ...(credentials ? { token: credentials.token } : {}), verify, previewTrigger: (ns, n) => previews.trigger(ns, n) });
      process.stdout.write(
        [
          `FlowOps is up. Embedded Kubernetes API: ${server.url}`,
          `Git repository (FlowSource ${git.source}): ${git.cloneUrlWithCredentials}`,
          `  git clone ${git.cloneUrlWithCredentials} && edit a Flow && git push   # live within a second`,
          ...(verify
            ? [
                `  Only commits signed by the --verify-keys keys are applied (mode ${verify.mode}); ` +
                  'the seed commit is unsigned, so push a signed one (git commit -S).',
              ]
            : []),
          '',
          'Use kubectl against it:',
          ...(merged ? [`  kubectl --context flowops get flows -A     # context "flowops" ${merged.created ? 'written to' : 'added to'} ${merged.file}`] : []),
          `  export KUBECONFIG=${kubeconfig}`,
          '  kubectl get namespaces',
          '  kubectl api-resources',
          '  kubectl get flows -A',
          '  kubectl get flowsources -A',
          `Web view: ${server.httpUrl}/ui/${credentials ? `?token=${credentials.token}` : ''}`,
          `Metrics: ${server.httpUrl}/metrics${credentials ? ` (behind authentication, as kube-apiserver's: the admin token is in ${join(dataDir, 'pki', 'admin.token')})` : ''}`,
          simulator ? 'Workloads are simulated: pods report Running and Ready, no container runs (--no-simulate turns it off).' : 'Workloads are not simulated (--no-simulate): nothing creates pods or reports workload status.',
          '',
          'Stop with Ctrl-C.',
          '',
        ].join('\n'),
      );
      onShutdown(log, () => manager.stop());
    });
}
