import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { FLOWOPS_BIN, ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

export interface Proc {
  name: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** kill -9 of the whole process group, as a container runtime kills a pod. */
  kill9(): void;
}

/** `flowops <args>` in its own process group, so a kill -9 takes its children with it. */
export function spawnFlowops(name: string, args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, [FLOWOPS_BIN, ...args], {
    env: { ...process.env, FLOWOPS_LOG_LEVEL: 'debug', ...env },
    cwd: ROOT,
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    name,
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    kill9: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

/** The embedded API server as its own process; returns its kubeconfig. */
export async function apiserverProcess(): Promise<{ proc: Proc; kubeconfig: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-dist-'));
  const proc = spawnFlowops('apiserver', ['apiserver', '--listen', '127.0.0.1:0', '--data', dir], {
    FLOWOPS_LOG_LEVEL: 'warn',
  });
  await waitFor(() => /kubeconfig: /.test(proc.stdout()), {
    what: `apiserver start (stderr: ${proc.stderr()})`,
    timeoutMs: 30_000,
  });
  return { proc, kubeconfig: join(dir, 'kubeconfig') };
}

export async function metricsAddressOf(p: Proc): Promise<string> {
  const m = await waitFor(() => /metrics listening on (http:\/\/[^/\s]+)\/metrics/.exec(p.stdout()), {
    what: `${p.name} metrics address (stderr: ${p.stderr().slice(-2000)})`,
    timeoutMs: 90_000,
  });
  return m[1]!;
}

/** The value of flowops_leader on a process's /metrics (undefined when it does not answer). */
export async function leaderGauge(base: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(1000) });
    const m = /^flowops_leader\{[^}]*\} (\d+)/m.exec(await res.text());
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export async function stopGracefully(p: Proc): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  return p.exited;
}

/**
 * For one test file: the embedded API server as its own process (set up by `setup`), a client for
 * it, and `track` for the processes a test starts, which are killed after each test.
 */
export function apiServerFixture(setup?: (kube: KubeClient) => Promise<void>): {
  kubeconfig: () => string;
  kube: () => KubeClient;
  track: (p: Proc) => Proc;
} {
  let api: { proc: Proc; kubeconfig: string } | undefined;
  let kube: KubeClient | undefined;
  const procs: Proc[] = [];
  beforeAll(async () => {
    api = await apiserverProcess();
    kube = KubeClient.fromKubeconfig(api.kubeconfig);
    await setup?.(kube);
  });
  afterEach(() => {
    for (const p of procs.splice(0)) p.kill9();
  });
  afterAll(async () => {
    kube?.rest.close();
    if (api) await stopGracefully(api.proc);
  });
  return {
    kubeconfig: () => api!.kubeconfig,
    kube: () => kube!,
    track: (p) => {
      procs.push(p);
      return p;
    },
  };
}
