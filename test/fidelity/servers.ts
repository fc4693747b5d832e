import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startApiServer } from '../../src/apiserver/index.js';
import { DOWN_SCRIPT, readControlPlaneEnv, UP_SCRIPT } from '../real/control-plane-paths.js';
import type { Target } from './http-target.js';

const run = promisify(execFile);

/** The version the real control plane runs (scripts/control-plane/go.mod); the embedded one reports the same. */
export const COMPARED_VERSION = '1.34.4';

export interface ServerPair {
  real: Target;
  embedded: Target;
  stop(): Promise<void>;
}

/**
 * A real kube-apiserver + etcd (scripts/control-plane/up.sh, without kube-controller-manager so
 * nothing writes to the cluster behind the scenarios' backs: no `kube-root-ca.crt` ConfigMap or
 * `default` ServiceAccount appearing in a namespace at a moment of its own) and an embedded server
 * in this process, each with a fresh state.
 */
export async function startServerPair(): Promise<ServerPair> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-fidelity-'));
  try {
    await run('bash', [UP_SCRIPT, join(dir, 'real')], {
      timeout: 180_000,
      env: { ...process.env, CONTROL_PLANE_CONTROLLER_MANAGER: '0' },
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`scripts/control-plane/up.sh failed: ${(e as { stderr?: string }).stderr ?? String(e)}`);
  }
  const env = readControlPlaneEnv(join(dir, 'real'));
  const pki = join(dir, 'real/pki');
  const real: Target = {
    name: 'real',
    url: env.CONTROL_PLANE_SERVER!,
    tls: {
      ca: readFileSync(join(pki, 'ca.crt'), 'utf8'),
      cert: readFileSync(join(pki, 'admin.crt'), 'utf8'),
      key: readFileSync(join(pki, 'admin.key'), 'utf8'),
    },
  };
  // No default ServiceAccounts: the real side runs without kube-controller-manager, which would make them.
  const server = await startApiServer({
    port: 0,
    dataDir: join(dir, 'embedded'),
    kubernetesVersion: COMPARED_VERSION,
    defaultServiceAccounts: false,
  });
  return {
    real,
    embedded: { name: 'embedded', url: server.url },
    stop: async () => {
      await server.close();
      await run('bash', [DOWN_SCRIPT, join(dir, 'real')], { timeout: 60_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
