import { spawn, type ChildProcess } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const FLOWOPS_BIN = join(ROOT, 'bin/flowops.js');

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `flowops <args>` as a real child process (in the repository root unless `cwd` says otherwise). */
export function runFlowops(args: string[], env: Record<string, string> = {}, cwd: string = ROOT): CliProcess {
  const child = spawn(process.execPath, [FLOWOPS_BIN, ...args], { env: { ...process.env, ...env }, cwd });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** `flowops up` on a free port of 127.0.0.1 with its data and kubeconfig in `dir`, and `flags` besides. */
export function runUpIn(dir: string, ...flags: string[]): CliProcess {
  return runFlowops([
    'up',
    '--listen',
    '127.0.0.1:0',
    '--data',
    join(dir, 'data'),
    '--kubeconfig',
    join(dir, 'kubeconfig'),
    ...flags,
  ]);
}

/** Waits for the "listening on http://…" line the apiserver/up commands print and returns the URL. */
export async function serverUrlOf(p: CliProcess): Promise<string> {
  const m = await waitFor(() => /(http:\/\/[\d.]+:\d+)/.exec(p.stdout()), {
    what: `server URL (stderr: ${p.stderr()})`,
    timeoutMs: 30_000,
  });
  return m[1]!;
}
