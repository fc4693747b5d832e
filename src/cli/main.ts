import { resolve } from 'node:path';
import { Command } from 'commander';
import { createLogger } from '../log/index.js';
import { addServerFlags, startEmbedded, type ServerFlags } from './apiserver-command.js';
import { onShutdown } from './shutdown.js';
import { registerValidateCommand } from './validate-command.js';
import { KubeClient } from '../kube/client.js';
import { startControllers } from '../runtime/controllers.js';

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

addServerFlags(program.command('up').description('run FlowOps in one process on the embedded API server (what `npm start` runs)'))
  .option('--source-dir <dir>', 'folder that relative chart and kustomize paths in Flows resolve against', 'repos-example')
  .action(async (flags: ServerFlags & { sourceDir: string }) => {
    const log = createLogger({ command: 'up' });
    const { server, kubeconfig } = await startEmbedded(flags, log);
    const controllers = await startControllers({ kube: KubeClient.fromKubeconfig(kubeconfig), log, installCrds: true, sourceDir: resolve(flags.sourceDir) });
    process.stdout.write(
      [
        `FlowOps is up. Embedded Kubernetes API: ${server.url}`,
        '',
        'Use kubectl against it:',
        `  export KUBECONFIG=${kubeconfig}`,
        '  kubectl get namespaces',
        '  kubectl api-resources',
        '  kubectl get flows -A',
        '',
        'Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
    onShutdown(log, async () => {
      await controllers.stop();
      await server.close();
    });
  });

registerValidateCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`flowops: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
