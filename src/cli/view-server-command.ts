import { resolve } from 'node:path';
import type { Command } from 'commander';
import { kubeFrom } from './cluster-flags.js';
import { onShutdown } from './shutdown.js';
import { summaryOf } from './command-table.js';

interface Flags {
  dev?: boolean;
  tlsKeyFile: string;
  tlsCertFile: string;
  host: string;
  port: string;
  dataDir: string;
  kubeconfig?: string;
  operators: boolean;
  installCrd?: boolean;
}

/**
 * `flowops view-server`: FlowOps on a real cluster keeps Operator views in its own API server
 * (view groups only) instead of the cluster, and runs the Operators against the cluster.
 * HTTPS with JWT tokens unless `--dev` is given.
 */
export function registerViewServerCommand(program: Command): void {
  program
    .command('view-server')
    .description(summaryOf('view-server'))
    .option('--dev', 'development mode: plain HTTP, no authentication')
    .option('--tls-key-file <file>', 'server key (signs and verifies tokens)', 'apiserver.key')
    .option('--tls-cert-file <file>', 'server certificate', 'apiserver.crt')
    .option('--host <host>', 'listen address', '0.0.0.0')
    .option('--port <port>', 'listen port', '8443')
    .option('--data-dir <dir>', 'where view objects are stored', '.flowops/views')
    .option('--kubeconfig <file>', 'the cluster the Operators run against (default: the usual kubeconfig)')
    .option('--no-operators', 'only serve views; run no Operator controllers')
    .option('--install-crd', 'apply the Operator CRD to the cluster first')
    .action(async (f: Flags) => {
      const { createLogger } = await import('../log/index.js');
      const log = createLogger({ command: 'view-server' });
      const [{ startOperators }, { startViewApiServer }] = await Promise.all([
        import('../operator/runtime.js'),
        import('../viewapi/server.js'),
      ]);
      const view = await startViewApiServer({
        dataDir: resolve(f.dataDir),
        host: f.host,
        port: Number(f.port),
        ...(f.dev ? { development: true } : { tls: { keyFile: f.tlsKeyFile, certFile: f.tlsCertFile } }),
      });
      const operators = f.operators
        ? await startOperators({
            kube: await kubeFrom(f),
            log,
            installCrd: f.installCrd === true,
            views: await view.backend(),
          })
        : undefined;
      process.stdout.write(
        `FlowOps view API server listening on ${view.url}${f.dev ? ' (development mode: no authentication)' : ''}\n`,
      );
      onShutdown(log, async () => {
        await operators?.stop();
        await view.close();
      });
    });
}
