import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

export const CONTROL_PLANE_DIR = join(ROOT, 'scripts/control-plane');
export const BUILD_SCRIPT = join(CONTROL_PLANE_DIR, 'build.sh');
export const CHECK_GO_SCRIPT = join(CONTROL_PLANE_DIR, 'check-go.sh');
export const UP_SCRIPT = join(CONTROL_PLANE_DIR, 'up.sh');
export const DOWN_SCRIPT = join(CONTROL_PLANE_DIR, 'down.sh');

/** The version of a module as scripts/control-plane/go.mod pins it (the same rule as lib.sh). */
function pinned(module: string): string {
  const m = new RegExp(`^\\s*${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (v\\S+)`, 'm').exec(readFileSync(join(CONTROL_PLANE_DIR, 'go.mod'), 'utf8'));
  if (!m) throw new Error(`scripts/control-plane/go.mod does not require ${module}`);
  return m[1]!;
}

/** The cache's bin dir when etcd and kube-apiserver are already built there, else undefined. */
export function cachedBinDir(): string | undefined {
  const version = `kubernetes-${pinned('k8s.io/kubernetes')}-etcd-${pinned('go.etcd.io/etcd/server/v3')}`;
  const bin = join(process.env.FLOWOPS_CACHE ?? join(homedir(), '.cache/flowops'), 'control-plane', version, 'bin');
  return existsSync(join(bin, 'etcd')) && existsSync(join(bin, 'kube-apiserver')) ? bin : undefined;
}

/** DIR/env that up.sh writes: ports, bin dir, whether the controller-manager runs. */
export function readControlPlaneEnv(dir: string): Record<string, string> {
  return Object.fromEntries(readFileSync(join(dir, 'env'), 'utf8').trim().split('\n').map((l) => l.split('=', 2) as [string, string]));
}
