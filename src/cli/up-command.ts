import type { IncomingMessage } from 'node:http';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { addServerFlags, startEmbedded, type ServerFlags } from './apiserver-command.js';
import { onShutdown } from './shutdown.js';
import { addTenancyFlags, isolateScripts, tenancyOf, type TenancyFlags } from './tenancy-flags.js';
import { addSimulateFlags, type SimulateFlags } from './simulate-flags.js';
import type { ControllersConfig } from './up/protocol.js';
import type { Logger } from '../log/index.js';
import type { MergeResult, EmbeddedCredentials } from '../kube/index.js';
import { isLoopback } from './listen.js';
import { summaryOf } from './command-table.js';
import { addVerifyFlags, embeddedVerifyOf, type VerifyFlags } from './verify-flags.js';
import { addKcmFlags, kubeControllerManagerOf, kubeControllerManagerPart, type KcmFlags } from './kcm-flags.js';

type UpFlags = ServerFlags &
  SimulateFlags &
  TenancyFlags &
  VerifyFlags &
  KcmFlags & {
    sourceDir: string;
    kubeconfigMerge: boolean;
    controllersInProcess?: boolean;
  };

/** The kubeconfig kubectl reads first (KUBECONFIG's first file, else ~/.kube/config) gets the context; a failure is only logged. */
async function mergeUserKubeconfig(
  serverUrl: string,
  credentials: EmbeddedCredentials | undefined,
  log: Logger,
): Promise<MergeResult | undefined> {
  const [{ mergeKubeconfigContext }, { homedir }, { delimiter, join: joinPath }] = await Promise.all([
    import('../kube/kubeconfig-merge.js'),
    import('node:os'),
    import('node:path'),
  ]);
  const file =
    (process.env.KUBECONFIG ?? '').split(delimiter).find(Boolean) ??
    joinPath(process.env.HOME ?? homedir(), '.kube', 'config');
  try {
    return mergeKubeconfigContext(file, 'flowops', serverUrl, credentials);
  } catch (err) {
    log.warn({ err, file }, 'could not add the flowops context to the kubeconfig');
    return undefined;
  }
}

/**
 * `flowops up` (what `npm start` runs): the embedded API server, the controllers, the Git endpoint, in one process:
 * the API server and its routes on the main thread, the controller side on a worker thread (src/cli/up/).
 */
export function registerUpCommand(program: Command): void {
  addKcmFlags(
    addVerifyFlags(
      addTenancyFlags(addSimulateFlags(addServerFlags(program.command('up').description(summaryOf('up'))))),
    ),
  )
    .option(
      '--source-dir <dir>',
      'folder that relative chart and kustomize paths in Flows resolve against',
      'repos-example',
    )
    .option(
      '--no-auth',
      'serve plain HTTP and allow every request, as before authentication existed (only on a machine nobody else can reach)',
    )
    .option(
      '--no-kubeconfig-merge',
      'do not add the "flowops" context to your kubeconfig (KUBECONFIG or ~/.kube/config)',
    )
    .option(
      '--controllers-in-process',
      "run the controllers on the API server's thread, one thread for all (for a debugger; also " +
        'FLOWOPS_CONTROLLERS_IN_PROCESS=1); by default they have a thread of their own',
    )
    .action(async (flags: UpFlags) => {
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
      process.stdout.write(
        `Embedded Kubernetes API listening on ${server.url}; starting the controllers and the Git source…\n`,
      );
      const [
        { KubeClient },
        { startEmbeddedGit },
        { processMetrics },
        { writeMetrics },
        { uiRoute },
        { readCommitFile },
        { commitDirOf },
        { uiTokenGuard, carriesAdminToken },
        { commitPreviewer, commitReader },
        side,
      ] = await Promise.all([
        import('../kube/client.js'),
        import('../runtime/embedded-git.js'),
        import('../metrics/registry.js'),
        import('../metrics/route.js'),
        import('../ui-server/route.js'),
        import('../ui-server/commit-file.js'),
        import('../runtime/sources.js'),
        import('../ui-server/token-guard.js'),
        import('../ui-server/commit-preview.js'),
        import('./up/index.js'),
      ]);
      const kube = KubeClient.fromKubeconfig(kubeconfig);
      const dataDir = resolve(flags.data);
      // Its data folder holds the admin kubeconfig and the server's database: never a script's to read.
      const ownPaths = [dataDir, kubeconfig];
      isolateScripts(flags, ownPaths);
      const sourcesDir = join(dataDir, 'sources');
      // The controller side (simulator, controllers, notifier, previews) on a thread of its own by
      // default, so the API server and the reconciles use two cores (src/cli/up/).
      const account = flags.defaultServiceAccount;
      const defaultServiceAccount = account ? { defaultServiceAccount: account } : {};
      const rootCa = credentials ? { rootCa: credentials.caCert } : {};
      const config: ControllersConfig = {
        kubeconfig,
        ...(flags.logFormat ? { logFormat: flags.logFormat } : {}),
        tenancy: tenancyOf(flags),
        scripts: {
          memoryLimitBytes: flags.scriptMemoryLimit,
          isolate: flags.scriptIsolation !== 'none',
          hide: ownPaths,
        },
        sourceDir: resolve(flags.sourceDir),
        installCrds: true,
        sources: { dataDir: sourcesDir, ...defaultServiceAccount },
        // With the real kube-controller-manager, the simulator plays only the kubelet.
        ...(flags.simulate
          ? { simulator: { podStartMs: flags.podReadyDelay, kubeletOnly: Boolean(kcmBinary), ...rootCa } }
          : {}),
        notify: { viewUrl: server.httpUrl },
        previews: { dataDir, viewUrl: server.httpUrl },
      };
      const controllers =
        side.layoutOf(flags.controllersInProcess) === 'in-process'
          ? new side.InProcessControllers(config, log)
          : new side.ControllersThread(config, {
              log,
              // Not restarted: a process serving the API with no controllers behind it would look up and do nothing.
              onCrash: (err) => {
                log.error({ err, code: err.code }, 'the controllers thread failed; stopping flowops up');
                void manager.stop().finally(() => process.exit(1));
              },
            });
      // Before the controllers start, so that /readyz answers 503 until they have.
      server.addRoute(side.readinessRoute(server, manager, controllers));
      // The web view, on the same loopback listener, mounted first so that an open page reconnects
      // as soon as the server is back; it reads as the admin kubeconfig of `up`.
      // "Sync now" reaches the Git poller once it has started (a click before that is a no-op: the
      // poller's first sync comes anyway).
      const ui = uiRoute({
        kube,
        log,
        loopbackOnly: isLoopback(server.host),
        syncNow: (ns, n) => controllers.trigger(ns, n),
        commitFile: (obj) =>
          readCommitFile(commitDirOf(sourcesDir, obj), obj.metadata.annotations?.['flowops.io/path']),
        previewCommit: commitPreviewer(sourcesDir),
        readCommit: commitReader(sourcesDir),
        // With auth on, the admin token's holder reads as the admin; a ServiceAccount token signs in as itself.
        ...(credentials
          ? { access: 'per-user' as const, admin: (req: IncomingMessage) => carriesAdminToken(req, credentials.token) }
          : {}),
      });
      const guard = credentials ? uiTokenGuard(credentials.token, ui.users) : undefined;
      server.addRoute(
        async (req, res, url) => (guard ? await guard(req, res, url) : false) || ui.handle(req, res, url),
      );
      const metrics = processMetrics();
      // Beside the controllers, as a cluster's kube-controller-manager runs beside its API server;
      // stopped after them.
      const kcm =
        kcmBinary && (await kubeControllerManagerPart({ binary: kcmBinary, dataDir, server, credentials, log }));
      if (kcm) await manager.add(kcm);
      await manager.add(controllers);
      await manager.add(stopOnly('ui', () => ui.stop()));
      await manager.start();
      // One process is always the leader; /metrics sits beside /healthz and /readyz on the API
      // server's own listener, as kube-apiserver serves its own.
      metrics.leader.set({ identity: 'up' }, 1);
      server.addRoute(
        async (req, res, url) => {
          if (url.pathname !== '/metrics' || req.method !== 'GET') return false;
          await writeMetrics(res, await controllers.scrape(metrics.registry));
          return true;
        },
        { behindAuth: true },
      );
      // Like kind and k3d: a "flowops" context in the user's kubeconfig, unless told where to write one.
      const merged =
        flags.kubeconfigMerge && !flags.kubeconfig
          ? await mergeUserKubeconfig(server.url, credentials, log)
          : undefined;
      const git = await startEmbeddedGit({
        server,
        kube,
        log,
        sources: controllers,
        dataDir: join(dataDir, 'git'),
        seedFrom: resolve(flags.sourceDir),
        ...(credentials ? { token: credentials.token } : {}),
        verify,
        previewTrigger: (ns, n) => controllers.previewTrigger(ns, n),
      });
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
          ...(merged
            ? [
                `  kubectl --context flowops get flows -A     # context "flowops" ${merged.created ? 'written to' : 'added to'} ${merged.file}`,
              ]
            : []),
          `  export KUBECONFIG=${kubeconfig}`,
          '  kubectl get namespaces',
          '  kubectl api-resources',
          '  kubectl get flows -A',
          '  kubectl get flowsources -A',
          `Web view: ${server.httpUrl}/ui/${credentials ? `?token=${credentials.token}` : ''}`,
          `Metrics: ${server.httpUrl}/metrics${credentials ? ` (behind authentication, as kube-apiserver's: the admin token is in ${join(dataDir, 'pki', 'admin.token')})` : ''}`,
          flags.simulate
            ? 'Workloads are simulated: pods report Running and Ready, no container runs (--no-simulate turns it off).'
            : 'Workloads are not simulated (--no-simulate): nothing creates pods or reports workload status.',
          '',
          'Stop with Ctrl-C.',
          '',
        ].join('\n'),
      );
      onShutdown(log, () => manager.stop());
    });
}
