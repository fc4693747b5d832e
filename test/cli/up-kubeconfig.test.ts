import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runFlowops, serverUrlOf } from '../helpers/cli.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

// `flowops up` adds a "flowops" context to the user's kubeconfig, as kind and k3d do, and leaves
// everything else in it alone.

const EXISTING = `# my clusters
apiVersion: v1
kind: Config
clusters:
  - name: prod
    cluster: { server: "https://prod.example:6443" }
users:
  - name: admin
    user: { token: keep-me }
contexts:
  - name: prod
    context: { cluster: prod, user: admin }
current-context: prod
`;

async function up(home: string, extra: string[] = []): Promise<{ stdout: string; kubeconfig: string }> {
  const data = join(home, 'data');
  const p = runFlowops(['up', '--listen', '127.0.0.1:0', '--data', data, ...extra], {
    HOME: home,
    KUBECONFIG: '',
    FLOWOPS_LOG_LEVEL: 'warn',
  });
  try {
    await serverUrlOf(p);
    await waitFor(() => p.stdout().includes('Stop with Ctrl-C'), { what: 'the start-up text', timeoutMs: 30_000 });
    return { stdout: p.stdout(), kubeconfig: join(data, 'kubeconfig') };
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
  }
}

describe('flowops up and the user kubeconfig', { timeout: 120_000 }, () => {
  it('adds the flowops context beside the others, keeps the current one, and kubectl --context flowops works', async () => {
    const home = mkdtempSync(join(tmpdir(), 'flowops-home-'));
    mkdirSync(join(home, '.kube'));
    const file = join(home, '.kube', 'config');
    writeFileSync(file, EXISTING, { mode: 0o600 });
    const data = join(home, 'data');
    const p = runFlowops(['up', '--listen', '127.0.0.1:0', '--data', data], {
      HOME: home,
      KUBECONFIG: '',
      FLOWOPS_LOG_LEVEL: 'warn',
    });
    try {
      const url = await serverUrlOf(p);
      await waitFor(() => p.stdout().includes(`context "flowops" added to ${file}`), {
        what: 'the merge line',
        timeoutMs: 30_000,
      });
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith('# my clusters')).toBe(true);
      const cfg = parse(text) as {
        contexts: Array<{ name: string }>;
        clusters: Array<{ name: string; cluster: { server: string } }>;
        users: Array<{ name: string; user: Record<string, string> }>;
        'current-context': string;
      };
      expect(cfg['current-context']).toBe('prod');
      expect(cfg.contexts.map((c) => c.name)).toEqual(['prod', 'flowops']);
      // The API is HTTPS on the port the plain-HTTP routes share; the context carries the admin token.
      expect(cfg.clusters.find((c) => c.name === 'flowops')!.cluster.server).toBe(url.replace('http://', 'https://'));
      expect(cfg.users.find((u) => u.name === 'flowops')!.user.token).toBe(
        readFileSync(join(data, 'pki', 'admin.token'), 'utf8'),
      );
      expect(cfg.users.find((u) => u.name === 'admin')!.user.token).toBe('keep-me');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const kubectl = kubectlFor(file, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
      expect(await kubectl.ok(['--context', 'flowops', 'get', 'namespace', 'default', '-o', 'name'])).toBe(
        'namespace/default\n',
      );
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  });

  it('writes a new kubeconfig with the flowops context current when there was none', async () => {
    const home = mkdtempSync(join(tmpdir(), 'flowops-home-'));
    const { stdout } = await up(home);
    const file = join(home, '.kube', 'config');
    expect(stdout).toContain(`context "flowops" written to ${file}`);
    expect((parse(readFileSync(file, 'utf8')) as { 'current-context': string })['current-context']).toBe('flowops');
  });

  it('leaves the user kubeconfig alone with --no-kubeconfig-merge, or when --kubeconfig names a file', async () => {
    for (const extra of [['--no-kubeconfig-merge'], ['--kubeconfig', 'KC']]) {
      const home = mkdtempSync(join(tmpdir(), 'flowops-home-'));
      mkdirSync(join(home, '.kube'));
      writeFileSync(join(home, '.kube', 'config'), EXISTING);
      const args = extra.map((a) => (a === 'KC' ? join(home, 'own-kubeconfig') : a));
      const { stdout } = await up(home, args);
      expect(stdout).not.toContain('context "flowops"');
      expect(readFileSync(join(home, '.kube', 'config'), 'utf8')).toBe(EXISTING);
    }
  });
});
