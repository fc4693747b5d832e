// A script step tries to reach what is FlowOps' own — its credential files, its process, its
// uid — and to outgrow its bounds (memory, outputs, a child escaping with setsid). Real bash,
// python3, unshare/setpriv/prlimit and kubectl; see src/executors/script-sandbox.ts.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptStepSchema } from '../../src/api/flow.js';
import { scriptExecutor } from '../../src/executors/script.js';
import { DEFAULT_SCRIPT_MEMORY_LIMIT, scriptSandbox } from '../../src/executors/script-sandbox.js';
import { KubeClient } from '../../src/kube/client.js';
import { embeddedKubeconfig } from '../../src/kube/kubeconfig.js';
import { KUBECTL } from '../helpers/kubectl.js';
import { processesRunning, sleepMarker } from '../helpers/process-scan.js';
import { waitFor } from '../helpers/wait.js';
import { failure, makeContext } from './context.js';

const level = await scriptSandbox.detect();
const isolated = level === 'namespaces' || level === 'namespaces+uid';
if (!isolated) console.warn(`script isolation tests skipped: this machine allows only "${level}" (no usable unshare)`);

let dir: string;
let kube: KubeClient;
const SECRET = 'flowops-own-secret-value';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'script-isolation-'));
  chmodSync(dir, 0o1777);
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, embeddedKubeconfig('http://127.0.0.1:1'));
  kube = KubeClient.fromKubeconfig(file);
  // What a FlowOps data folder and credentials file look like to a script that goes looking.
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'git-credentials'), SECRET);
  writeFileSync(join(dir, 'flowops.kubeconfig'), `token: ${SECRET}\n`);
  chmodSync(join(dir, 'data', 'git-credentials'), 0o644);
  chmodSync(join(dir, 'flowops.kubeconfig'), 0o644);
  scriptSandbox.hide(join(dir, 'data'));
  scriptSandbox.hide(join(dir, 'flowops.kubeconfig'));
});
afterAll(() => {
  scriptSandbox.configure({ memoryLimitBytes: DEFAULT_SCRIPT_MEMORY_LIMIT });
  rmSync(dir, { recursive: true, force: true });
});

const run = (script: string, env: Record<string, string> = {}) =>
  scriptExecutor.run(
    scriptStepSchema.parse({ name: 'probe', type: 'script', script, env }),
    makeContext({
      kube,
      resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } },
    }),
  );

describe.skipIf(!isolated)(`script isolation (${level})`, () => {
  it("cannot read FlowOps' data folder or credentials file, however it asks", async () => {
    const { outputs } = await run(
      `for f in "$DATA/git-credentials" "$CREDS"; do cat "$f" 2>/dev/null; done
ls -A "$DATA" 2>/dev/null
grep -r "${SECRET.slice(0, 10)}" "$DATA" 2>/dev/null
echo done`,
      { DATA: join(dir, 'data'), CREDS: join(dir, 'flowops.kubeconfig') },
    );
    expect(outputs.stdout).toBe('done');
  });

  it("cannot see FlowOps' process: no /proc/<pid>/environ, and its own pid namespace", async () => {
    const { outputs } = await run(
      'cat "/proc/$FLOWOPS_PID/environ" 2>/dev/null | tr "\\0" "\\n" | head -c 200; test -e "/proc/$FLOWOPS_PID" && echo visible; echo "pid=$$"',
      { FLOWOPS_PID: String(process.pid) },
    );
    expect(outputs.stdout).toBe('pid=1');
  });

  it.skipIf(level !== 'namespaces+uid')('runs as nobody, with no groups, and may not gain privileges', async () => {
    const { outputs } = await run(
      'echo "$(id -u) $(id -g) $(id -G)"; grep NoNewPrivs /proc/self/status | tr -s "\\t " " "',
    );
    expect(outputs.stdout).toBe('65534 65534 65534\nNoNewPrivs: 1');
  });

  it('a child that escaped the process group with setsid dies with the script', async () => {
    const marker = sleepMarker();
    const { outputs } = await run(`setsid sleep ${marker} > /dev/null 2>&1 < /dev/null & echo gone`);
    expect(outputs.stdout).toBe('gone');
    await waitFor(() => processesRunning(marker).length === 0, { what: `the setsid child (sleep ${marker}) killed` });
  });

  it('memory is bounded by --script-memory-limit; kubectl still runs under the default', async () => {
    const { outputs } = await run(`"${KUBECTL}" version --client -o json > /dev/null && echo kubectl-ok`);
    expect(outputs.stdout).toBe('kubectl-ok');
    scriptSandbox.configure({ memoryLimitBytes: 256 * 1024 * 1024 });
    try {
      const err = await failure(() => run('python3 -c "b = bytearray(512 * 1024 * 1024)"'));
      expect(err).toMatchObject({ reason: 'ScriptFailed' });
      expect(err.message).toContain('MemoryError');
    } finally {
      scriptSandbox.configure({ memoryLimitBytes: DEFAULT_SCRIPT_MEMORY_LIMIT });
    }
  });
});

describe('script bounds on every machine', () => {
  it('outputs over 1 MiB are refused, not read', async () => {
    const err = await failure(() =>
      run('head -c 2000000 /dev/zero | tr "\\0" a | sed "s/^/big=/" > "$FLOWOPS_OUTPUTS"'),
    );
    expect(err).toMatchObject({ reason: 'OutputTooLarge', permanent: true });
    expect(err.message).toContain('at most 1048576 (1 MiB)');
  });
});
