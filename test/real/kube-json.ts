import { join } from 'node:path';
import { helmFor, type HelmResult } from '../helpers/helm.js';
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
export function helmIn(cp: RealControlPlane, args: string[]): Promise<HelmResult> {
  return helmFor(cp.kubeconfig, join(cp.dir, 'helm'))(['--kubeconfig', cp.kubeconfig, ...args]);
}
