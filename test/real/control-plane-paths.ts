import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

export const CONTROL_PLANE_DIR = join(ROOT, 'scripts/control-plane');
export const BUILD_SCRIPT = join(CONTROL_PLANE_DIR, 'build.sh');
export const CHECK_GO_SCRIPT = join(CONTROL_PLANE_DIR, 'check-go.sh');
export const UP_SCRIPT = join(CONTROL_PLANE_DIR, 'up.sh');
export const DOWN_SCRIPT = join(CONTROL_PLANE_DIR, 'down.sh');
export const FLUX_BUILD_SCRIPT = join(CONTROL_PLANE_DIR, 'build-flux.sh');
/** Runs a controller with the in-cluster namespace file in a mount namespace of its own (leader election). */
export const IN_CLUSTER_NAMESPACE_SCRIPT = join(CONTROL_PLANE_DIR, 'in-cluster-namespace.sh');

/** The version of a module as a go.mod of scripts/control-plane pins it (the same rule as lib.sh). */
function pinned(module: string, goMod = 'go.mod'): string {
  const m = new RegExp(`^\\s*${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (v\\S+)`, 'm').exec(
    readFileSync(join(CONTROL_PLANE_DIR, goMod), 'utf8'),
  );
  if (!m) throw new Error(`scripts/control-plane/${goMod} does not require ${module}`);
  return m[1]!;
}

const cacheRoot = () => join(process.env.FLOWOPS_CACHE ?? join(homedir(), '.cache/flowops'), 'control-plane');

/** The cache's bin dir when etcd and kube-apiserver are already built there, else undefined. */
export function cachedBinDir(): string | undefined {
  const version = `kubernetes-${pinned('k8s.io/kubernetes')}-etcd-${pinned('go.etcd.io/etcd/server/v3')}`;
  const bin = join(cacheRoot(), version, 'bin');
  return existsSync(join(bin, 'etcd')) && existsSync(join(bin, 'kube-apiserver')) ? bin : undefined;
}

/** Flux's cache folder (bin/, crds/) when build-flux.sh has filled it, else undefined (lib.sh's flux_dir). */
export function cachedFluxDir(): string | undefined {
  const v = (m: string) => pinned(`github.com/fluxcd/${m}`, 'flux/go.mod');
  const dir = join(
    cacheRoot(),
    `flux-source-controller-${v('source-controller')}-kustomize-controller-${v('kustomize-controller')}`,
  );
  return existsSync(join(dir, 'bin/source-controller')) &&
    existsSync(join(dir, 'bin/kustomize-controller')) &&
    existsSync(join(dir, 'crds'))
    ? dir
    : undefined;
}

/** DIR/env that up.sh writes: ports, bin dir, whether the controller-manager runs. */
export function readControlPlaneEnv(dir: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(join(dir, 'env'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );
}
