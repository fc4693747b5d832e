// The real kube-controller-manager as a part of `flowops up` (a Runnable of its manager): spawned on
// start, its output appended to a log file, SIGTERM on stop (SIGKILL if it has not exited after a grace
// period), so that it goes before the API server it talks to, as on a cluster.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../log/index.js';
import type { Runnable } from '../manager/index.js';
import { kubeControllerManagerArgs } from './args.js';

export interface KubeControllerManagerOptions {
  binary: string;
  kubeconfig: string;
  logFile: string;
  log: Logger;
  /** How long it may take to exit after SIGTERM; default 10 s. */
  stopGraceMs?: number;
}

export class KubeControllerManager implements Runnable {
  readonly name = 'kube-controller-manager';
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  private failed = false;

  constructor(private readonly opts: KubeControllerManagerOptions) {}

  start(): void {
    const { binary, kubeconfig, logFile, log } = this.opts;
    mkdirSync(dirname(logFile), { recursive: true });
    const out = openSync(logFile, 'a');
    const [command, ...args] = [...dieWithParent(), binary, ...kubeControllerManagerArgs(kubeconfig)];
    const child = spawn(command ?? binary, args, { stdio: ['ignore', out, out] });
    closeSync(out);
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('error', (err) => {
        this.failed = true;
        log.error({ err, binary }, 'kube-controller-manager could not be started');
        resolve();
      });
      child.once('exit', (code, signal) => {
        if (!this.stopping) log.error({ code, signal, logFile }, 'kube-controller-manager exited; see its log');
        resolve();
      });
    });
    log.info({ binary, pid: child.pid, logFile }, 'kube-controller-manager started');
  }

  /** Running (it may still be waiting for its leader Lease). */
  ready(): boolean {
    const c = this.child;
    return c !== undefined && !this.failed && c.exitCode === null && c.signalCode === null;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || this.failed || child.exitCode !== null || child.signalCode !== null) return;
    this.stopping = true;
    child.kill('SIGTERM');
    const grace = setTimeout(() => child.kill('SIGKILL'), this.opts.stopGraceMs ?? 10_000);
    await this.exited;
    clearTimeout(grace);
  }
}

/**
 * util-linux's setpriv, when there is one, asks the kernel to SIGKILL the controller manager when
 * `up` dies (PR_SET_PDEATHSIG), so a `kill -9` of `up` does not leave it running against a server
 * that is gone, holding its port and log. setpriv execs the binary: the pid stays the same. `up`
 * spawns it from its main thread, which lives as long as the process.
 */
function dieWithParent(): string[] {
  if (process.platform !== 'linux') return [];
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
  return setpriv ? [setpriv, '--pdeathsig', 'KILL', '--'] : [];
}
