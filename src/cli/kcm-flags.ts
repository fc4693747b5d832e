import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { EmbeddedCredentials } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import type { Runnable } from '../manager/index.js';
import { SetupError } from '../util/setup-error.js';

export interface KcmFlags {
  /** commander's optional value: true for the bare flag (the cached build), a path, or absent. */
  kubeControllerManager?: string | true;
  /** The server flag --kubernetes-version: the version the embedded server reports. */
  kubernetesVersion?: string;
}

const FLAG = '--kube-controller-manager';

/** `up` only: the real kube-controller-manager beside the embedded server instead of the simulated controllers. */
export function addKcmFlags(cmd: Command): Command {
  return cmd.option(
    `${FLAG} [path]`,
    'run the real kube-controller-manager against the embedded server (default: the build scripts/control-plane/' +
      'build.sh caches in ~/.cache/flowops); the simulator then plays only the kubelet',
  );
}

/**
 * The binary to run, checked before anything starts, or undefined without the flag. From the cache, only a
 * build of the Kubernetes version the embedded server reports is taken.
 */
export async function kubeControllerManagerOf(flags: KcmFlags): Promise<string | undefined> {
  const wanted = flags.kubeControllerManager;
  if (wanted === undefined) return undefined;
  if (wanted !== true) {
    const path = resolve(wanted);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new SetupError(`${FLAG}=${wanted}: no such file (want the path of a kube-controller-manager binary)`);
    }
    return path;
  }
  const [{ cachedKubeControllerManager, controlPlaneCacheDir }, { KUBERNETES_VERSION }] = await Promise.all([
    import('../controller-manager/binary.js'),
    import('../apiserver/server-defaults.js'),
  ]);
  const version = (flags.kubernetesVersion ?? KUBERNETES_VERSION).replace(/^v/, '');
  const cached = cachedKubeControllerManager(version);
  if (cached) return cached;
  throw new SetupError(
    `${FLAG}: no kube-controller-manager v${version} in ${controlPlaneCacheDir()} ` +
      `(scripts/control-plane/build.sh builds it there); give the path of one: ${FLAG}=PATH`,
  );
}

export interface KcmPart {
  binary: string;
  dataDir: string;
  server: { url: string };
  credentials: EmbeddedCredentials | undefined;
  log: Logger;
}

/**
 * The part of `up` that runs it: a kubeconfig of its own and its log in DATA/kube-controller-manager/,
 * and a line on stdout saying where the log is.
 */
export async function kubeControllerManagerPart(opts: KcmPart): Promise<Runnable> {
  const [{ writeKubeconfig }, { KubeControllerManager }] = await Promise.all([
    import('../kube/kubeconfig.js'),
    import('../controller-manager/process.js'),
  ]);
  const dir = join(opts.dataDir, 'kube-controller-manager');
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, opts.server.url, opts.credentials);
  const logFile = join(dir, 'kube-controller-manager.log');
  const kcm = new KubeControllerManager({ binary: opts.binary, kubeconfig, logFile, log: opts.log });
  return {
    name: kcm.name,
    start: () => {
      kcm.start();
      process.stdout.write(`kube-controller-manager (${opts.binary}) runs against this server; its log: ${logFile}\n`);
    },
    stop: () => kcm.stop(),
    ready: () => kcm.ready(),
  };
}
