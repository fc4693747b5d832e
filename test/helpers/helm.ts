import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HELM } from './kubectl.js';

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Helm {
  (args: string[]): Promise<HelmResult>;
  /** Runs and throws with stderr when the exit code is not 0. */
  ok(args: string[]): Promise<string>;
}

/** helm 4 (.tools/bin/helm) against a kubeconfig, with its cache, config and data under `home`. */
export function helmFor(kubeconfig: string, home: string): Helm {
  const env = {
    ...process.env,
    KUBECONFIG: kubeconfig,
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
  };
  const run = (args: string[]): Promise<HelmResult> =>
    new Promise((resolve, reject) => {
      const p = spawn(HELM, args, { env });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      p.on('error', reject);
      p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  const h = run as Helm;
  h.ok = async (args) => {
    const r = await run(args);
    if (r.code !== 0) throw new Error(`helm ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
  return h;
}

/** Writes a chart directory: Chart.yaml plus the given templates. */
export function writeChart(dir: string, name: string, templates: Record<string, string>): string {
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`);
  for (const [file, text] of Object.entries(templates)) writeFileSync(join(dir, 'templates', file), text);
  return dir;
}
