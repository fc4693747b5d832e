import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { HELM, type KubectlResult } from '../helpers/kubectl.js';
import type { RealControlPlane } from './control-plane.js';

export type Json = Record<string, any>;

/** `kubectl get … -o json` as admin; undefined when the object does not exist. */
export async function getJson(cp: RealControlPlane, args: string[]): Promise<Json | undefined> {
  const r = await cp.kubectl([...args, '-o', 'json']);
  if (r.code === 0) return JSON.parse(r.stdout) as Json;
  if (/NotFound|not found/.test(r.stderr)) return undefined;
  throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
}

/** The real helm against this control plane as admin, with its caches and config inside its dir. */
export function helmIn(cp: RealControlPlane, args: string[]): Promise<KubectlResult> {
  const home = join(cp.dir, 'helm');
  const env = { ...process.env, KUBECONFIG: cp.kubeconfig, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
  return new Promise((resolve, reject) => {
    const p = spawn(HELM, ['--kubeconfig', cp.kubeconfig, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
