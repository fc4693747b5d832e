import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { waitFor } from '../helpers/wait.js';
import type { RealControlPlane } from './control-plane.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Flux's cache folder (bin/, crds/) built by scripts/control-plane/build-flux.sh ('' when skipped). */
    fluxDir: string;
  }
}

/** Flux's source-controller and kustomize-controller as local processes against one control plane. */
export interface FluxControllers {
  /** The namespace they run in (RUNTIME_NAMESPACE), where Flux objects go by convention. */
  namespace: string;
  logs(): string;
  stop(): Promise<void>;
}

interface Controller {
  name: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * Installs Flux's CRDs (of the versions built) and starts source-controller (artifact server on
 * 127.0.0.1) and kustomize-controller as a Flux install runs them, but out of cluster with the
 * admin kubeconfig (Flux's own install binds cluster-admin to its controllers too) and without
 * leader election or the notification-controller.
 */
export async function startFlux(cp: RealControlPlane): Promise<FluxControllers> {
  const fluxDir = inject('fluxDir');
  if (!fluxDir) throw new Error('Flux is not built here (see the skip reason printed by the real tier)');
  const namespace = 'flux-system';
  const crds = join(fluxDir, 'crds');
  const files = readdirSync(crds).filter((f) => f.endsWith('.yaml')).flatMap((f) => ['-f', join(crds, f)]);
  // Server-side: Flux's CRDs are larger than the 256 KiB last-applied annotation allows.
  await cp.kubectl.ok(['apply', '--server-side', ...files]);
  await cp.kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', 'crd/gitrepositories.source.toolkit.fluxcd.io', 'crd/kustomizations.kustomize.toolkit.fluxcd.io']);
  await cp.kubectl.ok(['create', 'namespace', namespace]);

  const storage = join(cp.dir, 'flux-artifacts');
  mkdirSync(storage, { recursive: true });
  const artifactPort = await freePort();
  const common = async () => ['--enable-leader-election=false', '--log-level=debug', `--metrics-addr=127.0.0.1:${await freePort()}`];
  const controllers: Array<Controller & { health: string }> = [];
  const start = async (name: string, args: string[]) => {
    const healthPort = await freePort();
    const child = spawn(join(fluxDir, 'bin', name), [...(await common()), `--health-addr=127.0.0.1:${healthPort}`, ...args], {
      env: { ...process.env, KUBECONFIG: cp.kubeconfig, RUNTIME_NAMESPACE: namespace },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    controllers.push({ name, child, output: () => out, health: `http://127.0.0.1:${healthPort}/readyz` });
  };
  await start('source-controller', [`--storage-path=${storage}`, `--storage-addr=127.0.0.1:${artifactPort}`, `--storage-adv-addr=127.0.0.1:${artifactPort}`]);
  await start('kustomize-controller', []);

  const logs = () => controllers.map((c) => `--- ${c.name} (exit ${c.child.exitCode ?? c.child.signalCode ?? 'running'}):\n${c.output().slice(-4000)}`).join('\n');
  const stop = async () => {
    await Promise.all(controllers.map((c) => new Promise<void>((resolve) => {
      if (c.child.exitCode !== null || c.child.signalCode !== null) return resolve();
      c.child.once('exit', () => resolve());
      c.child.kill('SIGTERM');
    })));
    for (const c of controllers) writeFileSync(join(cp.dir, `${c.name}.log`), c.output());
  };
  try {
    for (const c of controllers) {
      await waitFor(async () => {
        if (c.child.exitCode !== null) throw new Error(`${c.name} exited with ${c.child.exitCode}\n${logs()}`);
        return (await fetch(c.health).catch(() => undefined))?.ok;
      }, { what: `${c.name} ready at ${c.health}\n${logs()}`, timeoutMs: 60_000 });
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { namespace, logs, stop };
}
