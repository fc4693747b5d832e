import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { createLogger } from '../log/index.js';
import { addServerFlags, startEmbedded, type ServerFlags } from './apiserver-command.js';
import { onShutdown } from './shutdown.js';
import { addSimulateFlags, startSimulatorIfWanted, type SimulateFlags } from './simulate-flags.js';
import { registerValidateCommand } from './validate-command.js';
import { registerHistoryCommand } from './history-command.js';
import { registerRollbackCommand } from './rollback-command.js';
import { registerPipelineCommand } from './pipeline-command.js';
import { registerAuthCommand } from './auth-command.js';
import { registerViewServerCommand } from './view-server-command.js';
import { registerRunCommand } from './run-command.js';
import { registerWorkerCommand } from './worker-command.js';
import { KubeClient } from '../kube/client.js';
import { startControllers } from '../runtime/controllers.js';
import { startEmbeddedGit } from '../runtime/embedded-git.js';
import { processMetrics } from '../metrics/registry.js';
import { metricsRoute } from '../metrics/route.js';

const program = new Command('flowops')
  .description('Turns YAML kept in Git into running Kubernetes operators')
  .version('0.1.0')
  .showHelpAfterError();

addServerFlags(program.command('apiserver').description('run the embedded Kubernetes-compatible API server in the foreground')).action(
  async (flags: ServerFlags) => {
    const log = createLogger({ command: 'apiserver' });
    const { server, kubeconfig } = await startEmbedded(flags, log);
    process.stdout.write(`FlowOps API server listening on ${server.url}\nkubeconfig: ${kubeconfig}\n`);
    onShutdown(log, () => server.close());
  },
);

addSimulateFlags(addServerFlags(program.command('up').description('run FlowOps in one process on the embedded API server (what `npm start` runs)')))
  .option('--source-dir <dir>', 'folder that relative chart and kustomize paths in Flows resolve against', 'repos-example')
  .action(async (flags: ServerFlags & SimulateFlags & { sourceDir: string }) => {
    const log = createLogger({ command: 'up' });
    const { server, kubeconfig } = await startEmbedded(flags, log);
    const kube = KubeClient.fromKubeconfig(kubeconfig);
    const dataDir = resolve(flags.data);
    const metrics = processMetrics();
    // Beside the controllers, as a cluster's kubelet and kube-controller-manager run beside its API server.
    const simulator = await startSimulatorIfWanted(flags, kube, log);
    const controllers = await startControllers({ kube, log, metrics, installCrds: true, operators: true, sourceDir: resolve(flags.sourceDir), sources: { dataDir: join(dataDir, 'sources') } });
    // One process is always the leader; /metrics sits beside /healthz and /readyz on the API
    // server's own listener, as kube-apiserver serves its own.
    metrics.leader.set({ identity: 'up' }, 1);
    server.addRoute(metricsRoute(metrics.registry, async () => metrics.queueDepth.set(controllers.queue.depth())));
    const git = await startEmbeddedGit({ server, kube, log, sources: controllers.sources!, dataDir: join(dataDir, 'git'), seedFrom: resolve(flags.sourceDir) });
    process.stdout.write(
      [
        `FlowOps is up. Embedded Kubernetes API: ${server.url}`,
        `Git repository (FlowSource ${git.source}): ${git.cloneUrl}`,
        `  git clone ${git.cloneUrl} && edit a Flow && git push   # live within a second`,
        '',
        'Use kubectl against it:',
        `  export KUBECONFIG=${kubeconfig}`,
        '  kubectl get namespaces',
        '  kubectl api-resources',
        '  kubectl get flows -A',
        '  kubectl get flowsources -A',
        `Metrics: ${server.url}/metrics`,
        simulator ? 'Workloads are simulated: pods report Running and Ready, no container runs (--no-simulate turns it off).' : 'Workloads are not simulated (--no-simulate): nothing creates pods or reports workload status.',
        '',
        'Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
    onShutdown(log, async () => {
      await controllers.stop();
      await simulator?.stop();
      await server.close();
    });
  });

registerValidateCommand(program);
registerHistoryCommand(program);
registerRollbackCommand(program);
registerPipelineCommand(program);
registerAuthCommand(program);
registerViewServerCommand(program);
registerRunCommand(program);
registerWorkerCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`flowops: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
