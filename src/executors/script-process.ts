// Runs a script interpreter in its own process group. A script's children (`sleep 1000 &`,
// a daemon it forgot) are in that group too, so one kill of the group on timeout — and after the
// script exits, for leftovers — leaves nothing running. Killing only the direct child would leave
// the rest alive and holding the output pipes open.

import { spawn } from 'node:child_process';
import { Head, Tail } from './output-tail.js';

export interface ProcessOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The signal fired and the group was killed. */
  aborted: boolean;
}

export interface ProcessOptions {
  cwd: string;
  env: Record<string, string>;
  signal: AbortSignal;
  stdoutLimit: number;
  stderrLimit: number;
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already empty.
  }
}

export function runInProcessGroup(command: string, args: string[], opts: ProcessOptions): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return resolve({ exitCode: null, signal: null, stdout: '', stderr: '', aborted: true });
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = new Head(opts.stdoutLimit);
    const stderr = new Tail(opts.stderrLimit);
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => stdout.push(d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
    const onAbort = (): void => {
      aborted = true;
      killGroup(child.pid);
    };
    opts.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      opts.signal.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      killGroup(child.pid);
    });
    child.on('close', (code, signal) => {
      opts.signal.removeEventListener('abort', onAbort);
      const how = exit ?? { code, signal };
      resolve({ exitCode: how.code, signal: how.signal, stdout: stdout.text(), stderr: stderr.text(), aborted });
    });
  });
}
