import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFlowops, serverUrlOf } from '../helpers/cli.js';
import { gitAsync } from '../helpers/git-server.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { keyring } from '../helpers/signing.js';
import { waitFor } from '../helpers/wait.js';

describe('flowops up --verify-keys: the embedded repository applies only signed commits', () => {
  const keys = keyring();
  afterAll(() => keys.stop());

  it('refuses the unsigned seed, then applies a commit signed with an allowed SSH key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-verify-'));
    const signer = keys.sshKey('dev@example.com');
    const allowed = join(dir, 'allowed_signers');
    writeFileSync(allowed, `${signer.trusted}\n`);
    const kubeconfig = join(dir, 'kubeconfig');
    const up = runFlowops(
      [
        'up',
        '--listen',
        '127.0.0.1:0',
        '--data',
        join(dir, 'data'),
        '--kubeconfig',
        kubeconfig,
        '--verify-keys',
        allowed,
      ],
      { FLOWOPS_LOG_LEVEL: 'warn' },
    );
    try {
      await serverUrlOf(up);
      const cloneUrl = await waitFor(
        () => /Git repository \(FlowSource default\/flows\): (\S+)/.exec(up.stdout())?.[1],
        { what: 'clone URL' },
      );
      expect(up.stdout()).toContain('Only commits signed by the --verify-keys keys are applied (mode head)');
      const kubectl = kubectlFor(kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
      const ready = async (): Promise<{ reason?: string; message?: string }> => {
        const r = await kubectl([
          'get',
          'flowsource',
          'flows',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Ready")]}',
        ]);
        return r.code === 0 && r.stdout ? (JSON.parse(r.stdout) as { reason?: string; message?: string }) : {};
      };
      const refused = await waitFor(
        async () => ((await ready()).reason === 'VerificationFailed' ? ready() : undefined),
        { what: 'seed refused', timeoutMs: 30_000 },
      );
      expect(refused.message).toMatch(/^commit [0-9a-f]{40} refused: unsigned: it carries no signature$/);
      expect((await kubectl(['get', 'flows', '-A', '-o', 'name'])).stdout.trim()).toBe('');

      const work = join(dir, 'work');
      await gitAsync(dir, 'clone', '-q', cloneUrl, work);
      const config: Array<[string, string]> = [
        ...signer.config,
        ['user.name', 'Dev'],
        ['user.email', 'dev@example.com'],
      ];
      for (const [k, v] of config) await gitAsync(work, 'config', k, v);
      await gitAsync(work, 'commit', '-q', '--allow-empty', '-m', 'signed by dev');
      const sha = await gitAsync(work, 'rev-parse', 'HEAD');
      await gitAsync(work, 'push', '-q', 'origin', 'HEAD:main');
      await waitFor(
        async () =>
          (await kubectl(['get', 'flowsource', 'flows', '-o', 'jsonpath={.status.lastAppliedRevision}'])).stdout ===
          `main@sha1:${sha}`,
        { what: 'signed commit applied', timeoutMs: 20_000 },
      );
      expect((await ready()).reason).toBe('Applied');
      expect((await kubectl.ok(['get', 'flows', '-A', '-o', 'name'])).trim()).not.toBe('');
    } finally {
      up.child.kill('SIGTERM');
    }
    expect(await up.exited).toEqual({ code: 0, signal: null });
  });

  it('stops with the file named when a keys file holds no usable key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-verify-'));
    const bad = join(dir, 'keys.txt');
    writeFileSync(bad, 'dev@example.com ssh-ed25519 AAAAnotakey\n');
    const up = runFlowops(
      [
        'up',
        '--listen',
        '127.0.0.1:0',
        '--data',
        join(dir, 'data'),
        '--kubeconfig',
        join(dir, 'kubeconfig'),
        '--verify-keys',
        bad,
      ],
      { FLOWOPS_LOG_LEVEL: 'warn' },
    );
    expect((await up.exited).code).toBe(2);
    expect(up.stderr()).toContain(`--verify-keys ${bad}: line 1: `);
  });
});
