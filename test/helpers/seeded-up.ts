import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runUpIn, serverUrlOf, type CliProcess } from './cli.js';
import { kubectlFor, type Kubectl } from './kubectl.js';
import { waitFor } from './wait.js';

export interface SeededUp {
  up: CliProcess;
  url: string;
  kubectl: Kubectl;
}

/**
 * `flowops up` with its data and kubeconfig in `dir`, returned once the seed walkthrough's
 * my-postgres is Ready (the web view tests start from a cluster a user would see).
 */
export async function startSeededUp(dir: string): Promise<SeededUp> {
  const kubeconfig = join(dir, 'kubeconfig');
  const up = runUpIn(dir, '--pod-ready-delay', '200');
  const url = await serverUrlOf(up);
  const kubectl = kubectlFor(kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  await waitFor(
    async () => (await kubectl(['wait', '--for=condition=Ready', 'database/my-postgres', '--timeout=2s'])).code === 0,
    { what: 'my-postgres Ready', timeoutMs: 45_000 },
  );
  return { up, url, kubectl };
}
