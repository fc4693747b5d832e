import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, inject } from 'vitest';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { DOWN_SCRIPT, readControlPlaneEnv, UP_SCRIPT } from './control-plane-paths.js';

const run = promisify(execFile);

export interface RealControlPlane {
  /** State, logs, pki and kubeconfigs of this control plane. */
  dir: string;
  /** Admin kubeconfig (client cert in system:masters). */
  kubeconfig: string;
  server: string;
  /** kube-controller-manager runs (garbage collector, namespaces, ServiceAccounts). */
  controllerManager: boolean;
  /** The real kubectl as admin. */
  kubectl: Kubectl;
}

const skipReason = inject('controlPlaneSkipReason');

/** describe, or describe.skip with the reason printed when the tier cannot run here. */
export function describeReal(name: string, body: () => void): void {
  if (skipReason) {
    console.warn(`skipped "${name}": ${skipReason}`);
    describe.skip(name, body);
  } else {
    describe(name, body);
  }
}

/**
 * A control plane of this test file's own (scripts/control-plane/up.sh into a temp dir), stopped
 * after the file. One per file, not per run: the files install cluster-scoped objects (CRDs,
 * ClusterRoles) that would collide, and two files then run side by side on the two cores.
 */
export function realControlPlane(): () => RealControlPlane {
  let cp: RealControlPlane | undefined;
  let failed = false;
  afterEach((context) => {
    if (context.task.result?.state === 'fail') failed = true;
  });
  beforeAll(async () => {
    if (skipReason) return;
    const dir = mkdtempSync(join(tmpdir(), 'flowops-real-'));
    try {
      // The audit log lets a test see every request the server refused (audit.ts).
      await run('bash', [UP_SCRIPT, dir], { timeout: 180_000, env: { ...process.env, CONTROL_PLANE_AUDIT: '1' } });
    } catch (e) {
      throw new Error(`up.sh ${dir} failed: ${(e as { stderr?: string }).stderr ?? e}`);
    }
    const env = readControlPlaneEnv(dir);
    const kubeconfig = join(dir, 'kubeconfig');
    cp = {
      dir,
      kubeconfig,
      server: env.CONTROL_PLANE_SERVER!,
      controllerManager: env.CONTROL_PLANE_CONTROLLER_MANAGER === '1',
      kubectl: kubectlFor(kubeconfig, join(dir, 'kubectl-cache')),
    };
  }, 240_000);
  afterAll(async () => {
    if (!cp) return;
    await run('bash', [DOWN_SCRIPT, cp.dir], { timeout: 60_000 });
    // After a failure (or with FLOWOPS_KEEP_CONTROL_PLANE=1) the component logs, the audit log and
    // FlowOps' logs stay for a look.
    if (failed || process.env.FLOWOPS_KEEP_CONTROL_PLANE)
      console.warn(`control plane state and logs kept in ${cp.dir}`);
    else rmSync(cp.dir, { recursive: true, force: true });
  }, 90_000);
  return () => {
    if (!cp) throw new Error('the control plane is not up (skipped, or up.sh failed)');
    return cp;
  };
}
