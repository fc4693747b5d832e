import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowops } from '../helpers/cli.js';

// A newcomer's mistakes in how FlowOps is started: one line on stderr that says what is wrong and
// what to do, and exit code 2.

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const kubeconfig = (dir: string, server: string, currentContext: string | undefined): string => {
  const file = join(dir, `kubeconfig-${Math.random().toString(16).slice(2)}`);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{ name: c, cluster: { server: "${server}" } }]`,
      'users: [{ name: u, user: {} }]',
      'contexts: [{ name: dev, context: { cluster: c, user: u } }, { name: prod, context: { cluster: c, user: u } }]',
      ...(currentContext ? [`current-context: ${currentContext}`] : []),
    ].join('\n'),
  );
  return file;
};

async function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const p = runFlowops(args, env);
  const { code } = await p.exited;
  return { code, lines: p.stderr().trimEnd().split('\n') };
}

describe('setup errors are one line and exit 2', () => {
  const home = mkdtempSync(join(tmpdir(), 'flowops-home-'));
  const bare = { HOME: home, KUBECONFIG: '', KUBERNETES_SERVICE_HOST: '' };

  it('no kubeconfig anywhere', async () => {
    expect(await run(['history', 'flows'], bare)).toEqual({
      code: 2,
      lines: ['flowops: no cluster: set KUBECONFIG, or run "flowops up" and use .flowops/kubeconfig'],
    });
  });

  it('KUBECONFIG names a file that does not exist', async () => {
    const missing = join(home, 'nope.yaml');
    expect(await run(['history', 'flows'], { ...bare, KUBECONFIG: missing })).toEqual({
      code: 2,
      lines: [
        `flowops: no kubeconfig at ${missing} (KUBECONFIG): set KUBECONFIG, or run "flowops up" and use .flowops/kubeconfig`,
      ],
    });
  });

  it('a kubeconfig without a current context', async () => {
    const file = kubeconfig(home, 'http://127.0.0.1:1', undefined);
    expect(await run(['history', 'flows', '--kubeconfig', file], bare)).toEqual({
      code: 2,
      lines: [
        `flowops: kubeconfig ${file} has no current context: run "kubectl config use-context NAME" (contexts: dev, prod)`,
      ],
    });
  });

  it('a server that does not answer', async () => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const file = kubeconfig(home, server, 'dev');
    expect(await run(['history', 'flows'], { ...bare, KUBECONFIG: file })).toEqual({
      code: 2,
      lines: [
        `flowops: cannot reach the Kubernetes API server at ${server} (connection refused): is the cluster up? check the server in your kubeconfig, or run "flowops up"`,
      ],
    });
  });

  it('a Redis that does not answer, its password never shown', async () => {
    const port = await closedPort();
    const file = kubeconfig(home, 'http://127.0.0.1:1', 'dev');
    const r = await run(
      [
        'worker',
        '--kubeconfig',
        file,
        '--metrics-listen',
        '127.0.0.1:0',
        '--redis-url',
        `redis://user:s3cret@127.0.0.1:${port}`,
      ],
      bare,
    );
    expect(r).toEqual({
      code: 2,
      lines: [
        `flowops: cannot reach Redis at redis://***@127.0.0.1:${port} (connection refused): set REDIS_URL or --redis-url, or start redis-server (Debian package redis-server)`,
      ],
    });
  });
});
