import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import type { Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { IN_CLUSTER_NAMESPACE_SCRIPT } from './control-plane-paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Flux's cache folder (bin/, crds/) built by scripts/control-plane/build-flux.sh ('' when skipped). */
    fluxDir: string;
  }
}

/** What Flux runs against: the real control plane or an embedded API server, with an admin kubeconfig. */
export interface FluxTarget {
  /** Where the artifacts, scratch folders and the controllers' logs go. */
  dir: string;
  kubeconfig: string;
  kubectl: Kubectl;
}

export interface FluxOptions {
  /**
   * Leader election on, as a Flux install runs: each controller in a mount namespace of its own that has
   * the in-cluster namespace file (scripts/control-plane/in-cluster-namespace.sh). Off by default.
   */
  leaderElection?: boolean;
  /** source-controller replicas (default 1); with leader election one leads, the others stand by. */
  sourceReplicas?: number;
}

/** One controller process. */
export interface FluxController {
  /** `source-controller-1`, `kustomize-controller-1`, … */
  name: string;
  child: ChildProcess;
  output(): string;
  /** Its /readyz. */
  health: string;
}

/** Flux's source-controller and kustomize-controller as local processes against one API server. */
export interface FluxControllers {
  /** The namespace they run in (RUNTIME_NAMESPACE), where Flux objects go by convention. */
  namespace: string;
  controllers: FluxController[];
  logs(): string;
  stop(): Promise<void>;
}

/** Leader election IDs (Lease names) Flux's controllers use in their namespace. */
export const FLUX_LEASES = {
  'source-controller': 'source-controller-leader-election',
  'kustomize-controller': 'kustomize-controller-leader-election',
} as const;

/**
 * Why a controller cannot be given the in-cluster namespace file here (unshare or mounts refused), or
 * undefined when it can: the leader-election tests skip with this reason.
 */
export function inClusterNamespaceUnavailable(): string | undefined {
  const scratch = mkdtempSync(join(tmpdir(), 'flowops-in-cluster-'));
  try {
    const file = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
    const r = spawnSync(IN_CLUSTER_NAMESPACE_SCRIPT, ['probe', scratch, 'cat', file], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout === 'probe') return undefined;
    const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim();
    return `no private mount namespace with the in-cluster namespace file here (unshare --mount as root): ${why}`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Installs Flux's CRDs (of the versions built) and starts source-controller (artifact server on
 * 127.0.0.1) and kustomize-controller as a Flux install runs them, but out of cluster with the
 * admin kubeconfig (Flux's own install binds cluster-admin to its controllers too) and without
 * the notification-controller.
 */
export async function startFlux(target: FluxTarget, opts: FluxOptions = {}): Promise<FluxControllers> {
  const fluxDir = inject('fluxDir');
  if (!fluxDir) throw new Error('Flux is not built here (see the skip reason printed by the real tier)');
  const namespace = 'flux-system';
  const crds = join(fluxDir, 'crds');
  const files = readdirSync(crds)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => ['-f', join(crds, f)]);
  // Server-side: Flux's CRDs are larger than the 256 KiB last-applied annotation allows.
  await target.kubectl.ok(['apply', '--server-side', ...files]);
  const established = ['gitrepositories.source', 'kustomizations.kustomize'].map((n) => `crd/${n}.toolkit.fluxcd.io`);
  await target.kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', ...established]);
  await target.kubectl.ok(['create', 'namespace', namespace]);

  const controllers: FluxController[] = [];
  const start = async (name: string, args: string[]) => {
    const healthPort = await freePort();
    const flags = [
      `--enable-leader-election=${opts.leaderElection === true}`,
      '--log-level=debug',
      `--metrics-addr=127.0.0.1:${await freePort()}`,
      `--health-addr=127.0.0.1:${healthPort}`,
      ...args,
    ];
    const binary = join(fluxDir, 'bin', name.replace(/-\d+$/, ''));
    const scratch = mkdtempSync(join(target.dir, `${name}-mnt-`));
    const [command, argv] = opts.leaderElection
      ? [IN_CLUSTER_NAMESPACE_SCRIPT, [namespace, scratch, binary, ...flags]]
      : [binary, flags];
    const child = spawn(command, argv, {
      env: { ...process.env, KUBECONFIG: target.kubeconfig, RUNTIME_NAMESPACE: namespace },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    controllers.push({ name, child, output: () => out, health: `http://127.0.0.1:${healthPort}/readyz` });
  };
  for (let i = 1; i <= (opts.sourceReplicas ?? 1); i++) {
    // Each replica its own storage, as each pod of a Deployment has its own emptyDir.
    const storage = join(target.dir, `flux-artifacts-${i}`);
    mkdirSync(storage, { recursive: true });
    const artifactPort = await freePort();
    const address = `127.0.0.1:${artifactPort}`;
    const storageFlags = [`--storage-path=${storage}`, `--storage-addr=${address}`, `--storage-adv-addr=${address}`];
    await start(`source-controller-${i}`, storageFlags);
  }
  await start('kustomize-controller-1', []);

  const state = (c: FluxController) => c.child.exitCode ?? c.child.signalCode ?? 'running';
  const logs = () => controllers.map((c) => `--- ${c.name} (exit ${state(c)}):\n${c.output().slice(-4000)}`).join('\n');
  const stop = async () => {
    await Promise.all(
      controllers.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.child.exitCode !== null || c.child.signalCode !== null) return resolve();
            c.child.once('exit', () => resolve());
            c.child.kill('SIGTERM');
          }),
      ),
    );
    for (const c of controllers) writeFileSync(join(target.dir, `${c.name}.log`), c.output());
  };
  try {
    for (const c of controllers) {
      await waitFor(
        async () => {
          if (c.child.exitCode !== null) throw new Error(`${c.name} exited with ${c.child.exitCode}\n${logs()}`);
          return (await fetch(c.health).catch(() => undefined))?.ok;
        },
        { what: `${c.name} ready at ${c.health}\n${logs()}`, timeoutMs: 60_000 },
      );
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { namespace, controllers, logs, stop };
}
