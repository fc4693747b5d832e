// `flowops up` runs its controllers off the main thread (src/cli/up/): /readyz names the thread
// once the controllers have started, the seed Flow reconciles end to end (the simulator and the
// controllers in that thread, the API server in the main one), "Sync now" and a git push cross to
// the thread and sync, /metrics carries the thread's figures, and SIGTERM stops it all with exit 0.
// --controllers-in-process keeps the single thread.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowops, serverUrlOf, type CliProcess } from '../helpers/cli.js';
import { gitAsync } from '../helpers/git-server.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { startSeededUp } from '../helpers/seeded-up.js';
import { waitFor } from '../helpers/wait.js';

/** SIGTERM, then the exit, within a deadline (the controllers thread stops first, then the API server). */
type Exit = { code: number | null; signal: NodeJS.Signals | null };

async function stopWithin(up: CliProcess, ms: number): Promise<Exit | 'still running'> {
  up.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), ms)));
  const outcome = await Promise.race([up.exited, late]);
  clearTimeout(timer);
  if (outcome === 'still running') up.child.kill('SIGKILL');
  return outcome;
}

const FETCHES = /^flowops_git_fetch_duration_seconds_count\{source="default\/flows",result="success"\} (\d+)$/m;
const fetchCount = (metrics: string): number => Number(FETCHES.exec(metrics)?.[1] ?? 0);

describe('flowops up: the controllers on a thread of their own', () => {
  it('waits for its controllers thread; the seed reconciles, Sync now and a push sync, SIGTERM exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-threads-'));
    const { up, url, kubectl } = await startSeededUp(dir);
    let stopped = false;
    try {
      // my-postgres Ready: the Flow synced from Git, applied its StatefulSet, the simulator made it Ready.
      const ready = await fetch(`${url}/readyz?verbose`);
      expect(ready.status).toBe(200);
      expect(await ready.text()).toMatch(/^\[\+\]controllers ok \(worker thread \d+\)$/m);
      expect(up.stderr()).toMatch(/"thread":"controllers".*"msg":"controllers thread started"/);
      // The reconcile was logged by the controllers thread.
      const reconciled = up
        .stderr()
        .split('\n')
        .find((l) => l.includes('"msg":"reconciled"') && l.includes('"flow":"default/database-operator"'));
      expect(reconciled && JSON.parse(reconciled)).toMatchObject({
        thread: 'controllers',
        resource: 'Database/default/my-postgres',
      });

      // /metrics merges the thread's registry (reconciles, Git fetches, queue) into the main thread's.
      const token = readFileSync(join(dir, 'data', 'pki', 'admin.token'), 'utf8').trim();
      const auth = { Authorization: `Bearer ${token}` };
      const metrics = async (): Promise<string> => (await fetch(`${url}/metrics`, { headers: auth })).text();
      const first = await metrics();
      expect(first).toMatch(/^flowops_reconcile_total\{flow="default\/database-operator",result="success"\} [1-9]/m);
      expect(first).toMatch(/^flowops_leader\{identity="up"\} 1$/m);
      expect(first).toMatch(/^flowops_queue_depth \d+$/m);
      expect(first.match(/^# TYPE process_cpu_user_seconds_total /gm)).toHaveLength(1);
      const before = fetchCount(first);
      expect(before).toBeGreaterThan(0);

      // "Sync now" in the web view: the source fetches again at once (it polls only every minute).
      const headers = { ...auth, 'Content-Type': 'application/json' };
      const body = JSON.stringify({ action: 'sync' });
      const action = await fetch(`${url}/ui/api/sources/default/flows/actions`, { method: 'POST', headers, body });
      expect(action.status).toBe(200);
      const fetchedAgain = async (): Promise<boolean> => fetchCount(await metrics()) > before;
      await waitFor(fetchedAgain, { what: 'a Git fetch after Sync now', timeoutMs: 30_000 });

      // A push to the embedded repository triggers the sync in the controllers thread.
      const printed = () => /Git repository \(FlowSource default\/flows\): (\S+)/.exec(up.stdout());
      const cloneUrl = (await waitFor(printed, { what: 'clone URL' }))[1]!;
      const work = join(dir, 'work');
      await gitAsync(dir, 'clone', '-q', cloneUrl, work);
      const file = join(work, 'database-operator/flow.yaml');
      const labelled = 'name: database-operator\n  labels:\n    pushed: "yes"';
      writeFileSync(file, readFileSync(file, 'utf8').replace('name: database-operator', labelled));
      await gitAsync(work, '-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-qam', 'label the operator');
      await gitAsync(work, 'push', '-q', 'origin', 'HEAD:main');
      const label = ['get', 'flow', 'database-operator', '-o', 'jsonpath={.metadata.labels.pushed}'];
      const live = async (): Promise<boolean> => (await kubectl(label)).stdout === 'yes';
      await waitFor(live, { what: 'the pushed commit live', timeoutMs: 30_000 });

      stopped = true;
      expect(await stopWithin(up, 25_000)).toEqual({ code: 0, signal: null });
      expect(up.stderr()).toMatch(/"msg":"controllers thread stopped"/);
    } finally {
      if (!stopped) up.child.kill('SIGKILL');
    }
  });

  it('--controllers-in-process runs them on the main thread, as one thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-one-thread-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const args = ['--listen', '127.0.0.1:0', '--data', join(dir, 'data'), '--kubeconfig', kubeconfig];
    args.push('--no-kubeconfig-merge');
    const up = runFlowops(['up', '--controllers-in-process', '--no-simulate', ...args], { FLOWOPS_LOG_LEVEL: 'warn' });
    let stopped = false;
    try {
      const url = await serverUrlOf(up);
      const readyz = await waitFor(
        async () => {
          const r = await fetch(`${url}/readyz?verbose`);
          return r.status === 200 ? r.text() : undefined;
        },
        { what: '/readyz passing', timeoutMs: 60_000 },
      );
      expect(readyz).toMatch(/^\[\+\]controllers ok \(main thread \(--controllers-in-process\)\)$/m);
      const kubectl = kubectlFor(kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
      const applied = async (): Promise<boolean> => (await kubectl(['get', 'statefulset', 'my-postgres'])).code === 0;
      await waitFor(applied, { what: 'the seed StatefulSet', timeoutMs: 60_000 });
      stopped = true;
      expect(await stopWithin(up, 25_000)).toEqual({ code: 0, signal: null });
    } finally {
      if (!stopped) up.child.kill('SIGKILL');
    }
  });
});
