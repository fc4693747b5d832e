import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const PYTHON_SCRIPTS = join(root, 'test/python');

/** A python3 with the official Kubernetes client importable. */
export interface PythonClient {
  python: string;
  version: string;
}

/**
 * Interpreters that may have the official client, as `.ci/run` installs it: Debian's
 * python3-kubernetes for the system python (22.x, which sends booleans as `True`), PyPI's newest in
 * `.python/` (a venv, since Debian's python refuses pip outside one), and whatever python3 is on PATH.
 */
const CANDIDATES = ['/usr/bin/python3', join(root, '.python/bin/python3'), 'python3'];

/** The distinct client versions found, each with one interpreter; reasons printed for the rest. */
export function pythonClients(log: (line: string) => void = console.log): PythonClient[] {
  const found = new Map<string, PythonClient>();
  for (const python of CANDIDATES) {
    const r = spawnSync(python, ['-c', 'import kubernetes; print(kubernetes.__version__)'], { encoding: 'utf8' });
    if (r.error) {
      log(`python client: ${python} skipped, not installed`);
      continue;
    }
    if (r.status !== 0) {
      log(`python client: ${python} skipped, no "kubernetes" package: ${r.stderr.trim().split('\n').pop()}`);
      continue;
    }
    const version = r.stdout.trim();
    if (!found.has(version)) found.set(version, { python, version });
  }
  return [...found.values()];
}

export interface PythonResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script from test/python with the given kubeconfig; killed when the deadline passes. */
export function runPythonScript(
  client: PythonClient,
  script: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<PythonResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(client.python, [join(PYTHON_SCRIPTS, script)], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The JSON object a script prints on its last line. */
export function lastJsonLine<T>(r: PythonResult): T {
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`python script printed no JSON result (exit ${r.code}):\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
}
