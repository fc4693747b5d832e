import { execFileSync, spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { join } from 'node:path';
import {
  BUILD_SCRIPT,
  CHECK_GO_SCRIPT,
  CONTROL_PLANE_DIR,
  FLUX_BUILD_SCRIPT,
  cachedBinDir,
  cachedFluxDir,
} from './control-plane-paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the real tier is skipped ('' when it runs). */
    controlPlaneSkipReason: string;
  }
}

/**
 * vitest globalSetup of the real tier: builds the control plane's binaries once per machine
 * (scripts/control-plane/build.sh; a no-op when they are cached) before any test file starts one.
 * Without a usable Go (scripts/control-plane/check-go.sh), and nothing cached, every real-tier
 * test is skipped with the reason.
 */
export default function buildControlPlane(project: TestProject): void {
  const goCheck = spawnSync('bash', [CHECK_GO_SCRIPT], { encoding: 'utf8' });
  if (goCheck.status !== 0 && !cachedBinDir()) {
    const reason = `${goCheck.stdout.trim() || 'go cannot be used'} and no control plane is cached: the real-kube-apiserver tier is skipped (install Go to run it)`;
    console.warn(`test:real: ${reason}`);
    project.provide('controlPlaneSkipReason', reason);
    project.provide('fluxDir', '');
    return;
  }
  // A first build takes many minutes; its progress goes to the terminal.
  execFileSync('bash', [BUILD_SCRIPT], { stdio: ['ignore', 'ignore', 'inherit'] });
  project.provide('controlPlaneSkipReason', '');
  project.provide('fluxDir', buildFlux());
}

/**
 * Flux's controllers (scripts/control-plane/build-flux.sh), from a module of their own that needs a
 * newer Go than the control plane: without that Go and nothing cached, only test/real/flux.test.ts
 * is skipped.
 */
function buildFlux(): string {
  const goCheck = spawnSync('bash', [CHECK_GO_SCRIPT, join(CONTROL_PLANE_DIR, 'flux')], { encoding: 'utf8' });
  if (goCheck.status !== 0) {
    const cached = cachedFluxDir();
    if (!cached)
      console.warn(
        `test:real: Flux is not built (${goCheck.stdout.trim() || 'go cannot be used'}): the side-by-side tests are skipped`,
      );
    return cached ?? '';
  }
  return execFileSync('bash', [FLUX_BUILD_SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }).trim();
}
