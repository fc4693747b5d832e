// Where `flowops up --kube-controller-manager` finds the real kube-controller-manager when no path is
// given: the cache scripts/control-plane/build.sh fills (lib.sh's control_plane_bin_dir), one folder per
// pinned pair of Kubernetes and etcd versions. Only a build of the Kubernetes version the embedded server
// reports is taken: a controller-manager newer than its API server is outside Kubernetes' skew policy.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The control-plane cache folder (FLOWOPS_CACHE or ~/.cache/flowops, as lib.sh has it). */
export function controlPlaneCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.FLOWOPS_CACHE ?? join(homedir(), '.cache/flowops'), 'control-plane');
}

/** The cached kube-controller-manager of `version` (e.g. 1.34.4), or undefined when none is built. */
export function cachedKubeControllerManager(version: string, cacheDir = controlPlaneCacheDir()): string | undefined {
  const prefix = `kubernetes-v${version.replace(/^v/, '')}-`;
  const folders = existsSync(cacheDir)
    ? readdirSync(cacheDir)
        .filter((f) => f.startsWith(prefix))
        .sort()
    : [];
  return folders
    .map((f) => join(cacheDir, f, 'bin', 'kube-controller-manager'))
    .reverse()
    .find((bin) => existsSync(bin));
}
