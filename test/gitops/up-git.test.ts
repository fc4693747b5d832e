import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowops, serverUrlOf } from '../helpers/cli.js';
import { gitAsync } from '../helpers/git-server.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

describe('flowops up: the embedded Git endpoint and FlowSource', () => {
  it('serves repos-example over smart HTTP, applies it, and a push goes live at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-git-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const up = runFlowops(['up', '--listen', '127.0.0.1:0', '--data', join(dir, 'data'), '--kubeconfig', kubeconfig], {
      FLOWOPS_LOG_LEVEL: 'warn',
    });
    try {
      await serverUrlOf(up);
      const cloneUrl = (
        await waitFor(() => /Git repository \(FlowSource default\/flows\): (\S+)/.exec(up.stdout()), {
          what: 'clone URL',
        })
      )[1]!;
      const kubectl = kubectlFor(kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
      const annotation = async (flow: string, key: string): Promise<string> =>
        (await kubectl(['get', 'flow', flow, '-o', `jsonpath={.metadata.annotations.${key.replace(/\./g, '\\.')}}`]))
          .stdout;
      await waitFor(async () => (await annotation('database-operator', 'flowops.io/source')) === 'default/flows', {
        what: 'seeded Flow applied from Git',
        timeoutMs: 30_000,
      });
      // The seed's StatefulSet leads back to the commit of the Flow that made it.
      const flowRevision = await annotation('database-operator', 'flowops.io/revision');
      const sts = await waitFor(
        async () => {
          const r = await kubectl(['get', 'statefulset', 'my-postgres', '-o', 'json']);
          return r.code === 0
            ? (JSON.parse(r.stdout) as { metadata: { annotations: Record<string, string> } })
            : undefined;
        },
        { what: 'the seed StatefulSet', timeoutMs: 20_000 },
      );
      expect(sts.metadata.annotations).toMatchObject({
        'flowops.io/flow': 'default/database-operator',
        'flowops.io/owner': 'Database/default/my-postgres',
        'flowops.io/source': 'default/flows',
        'flowops.io/revision': flowRevision,
      });
      const row = await kubectl.ok(['get', 'flowsources']);
      expect(row).toMatch(/^NAME\s+URL\s+REVISION\s+READY\s+AGE/);
      expect(row).toMatch(/flows\s+http:\/\/127\.0\.0\.1:\d+\/git\/flows\.git\s+main@sha1:[0-9a-f]{40}\s+True/);

      // The endpoint is behind the admin token (the printed URL carries it): a push is applied as FlowOps.
      expect(new URL(cloneUrl).password).toBe(readFileSync(join(dir, 'data', 'pki', 'admin.token'), 'utf8'));
      const anonymous = new URL(cloneUrl);
      anonymous.username = '';
      anonymous.password = '';
      await expect(
        gitAsync(dir, '-c', 'credential.helper=', 'clone', '-q', anonymous.toString(), join(dir, 'refused')),
      ).rejects.toThrow(/401|Authentication failed|could not read Username/);
      const work = join(dir, 'work');
      await gitAsync(dir, 'clone', '-q', cloneUrl, work);
      const file = join(work, 'database-operator/flow.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          'name: database-operator',
          'name: database-operator\n  labels:\n    edited: "yes"',
        ),
      );
      await gitAsync(work, '-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-qam', 'edit the database operator');
      const sha = await gitAsync(work, 'rev-parse', 'HEAD');
      await gitAsync(work, 'push', '-q', 'origin', 'HEAD:main');
      const pushed = Date.now();
      await waitFor(async () => (await annotation('database-operator', 'flowops.io/revision')) === `main@sha1:${sha}`, {
        what: 'pushed commit live',
        timeoutMs: 10_000,
      });
      // The push triggers the sync directly; the source polls only every minute.
      expect(Date.now() - pushed).toBeLessThan(5_000);
      expect(await kubectl.ok(['get', 'flow', 'database-operator', '-o', 'jsonpath={.metadata.labels.edited}'])).toBe(
        'yes',
      );
    } finally {
      up.child.kill('SIGTERM');
    }
    expect(await up.exited).toEqual({ code: 0, signal: null });
  });
});
