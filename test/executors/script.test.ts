// script executor: real bash, sh and python3; values arrive through the environment, never as code.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptStepSchema, type ScriptStep } from '../../src/api/flow.js';
import { scriptExecutor } from '../../src/executors/script.js';
import { StepError } from '../../src/executors/types.js';
import { KubeClient } from '../../src/kube/client.js';
import { embeddedKubeconfig } from '../../src/kube/kubeconfig.js';
import type { KubeObject } from '../../src/kube/types.js';
import { processesRunning, sleepMarker } from '../helpers/process-scan.js';
import { waitFor } from '../helpers/wait.js';
import { failure, makeContext } from './context.js';
import { hostile } from './hostile-values.js';

// Scripts never call the API server; a client for a closed port is enough.
let dir: string;
let kube: KubeClient;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'script-test-'));
  // Scripts may run as another uid (script-sandbox.ts): the markers they write go here.
  chmodSync(dir, 0o1777);
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, embeddedKubeconfig('http://127.0.0.1:1'));
  kube = KubeClient.fromKubeconfig(file);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const resource = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Database',
  metadata: { name: 'my-postgres', namespace: 'prod', uid: 'u-1' },
  spec,
});

const step = (s: Record<string, unknown>): ScriptStep =>
  scriptStepSchema.parse({ name: 'validate', type: 'script', ...s });

function run(
  s: Record<string, unknown>,
  spec: Record<string, unknown> = { replicas: 3 },
  extra: Partial<Parameters<typeof makeContext>[0]> = {},
) {
  return scriptExecutor.run(step(s), makeContext({ kube, resource: resource(spec), ...extra }));
}

const unique = (prefix: string): string => join(dir, `${prefix}-${Math.random().toString(36).slice(2)}`);
const markersLeft = (): string[] => readdirSync(dir).filter((f) => f.startsWith('pwned-'));

describe('script: the seed example', () => {
  const seed = `#!/bin/bash
if [[ {{ .Resource.spec.replicas }} -lt 1 ]]; then
  echo "ERROR: replicas must be >= 1" >&2
  exit 1
fi
echo ok`;

  it('passes with replicas 3', async () => {
    const { outputs } = await run({ script: seed }, { replicas: 3 });
    expect(outputs).toEqual({ exitCode: 0, stdout: 'ok' });
  });

  it('fails with exit code 1, reason ScriptFailed and the stderr tail', async () => {
    const err = await failure(() => run({ script: seed }, { replicas: 0 }));
    expect(err).toBeInstanceOf(StepError);
    expect(err).toMatchObject({ exitCode: 1, reason: 'ScriptFailed', permanent: false });
    expect(err.message).toContain('ERROR: replicas must be >= 1');
  });
});

describe('script: hostile values stay data', () => {
  it.each(['bash', 'sh'])('%s: verbatim in plain code, "…", \'…\', heredocs and env; no marker file', async (shell) => {
    for (const value of hostile(unique('pwned'))) {
      const out = unique('out');
      const script = `#!/bin/${shell}
printf '%s' {{ .Resource.spec.v }} > "$OUT.plain"
printf '%s' "x{{ .Resource.spec.v }}y" > "$OUT.double"
printf '%s' 'x{{ .Resource.spec.v }}y' > "$OUT.single"
cat > "$OUT.heredoc" <<EOF
{{ .Resource.spec.v }}
EOF
printf '%s' "$COPY" > "$OUT.env"
# a comment mentioning {{ .Resource.spec.v }}
echo done`;
      const { outputs } = await run({ script, env: { OUT: out, COPY: '{{ .Resource.spec.v }}' } }, { v: value });
      expect(outputs.stdout).toBe('done');
      expect(readFileSync(`${out}.plain`, 'utf8')).toBe(value);
      expect(readFileSync(`${out}.double`, 'utf8')).toBe(`x${value}y`);
      expect(readFileSync(`${out}.single`, 'utf8')).toBe(`x${value}y`);
      expect(readFileSync(`${out}.heredoc`, 'utf8')).toBe(`${value}\n`);
      expect(readFileSync(`${out}.env`, 'utf8')).toBe(value);
    }
    expect(markersLeft()).toEqual([]);
  });

  it('python: verbatim in code, in "…", r\'…\' and triple-quoted literals; numbers and booleans keep their type', async () => {
    // One interpreter start for the whole corpus: python3 behind a version-manager shim is slow.
    const values = hostile(unique('pwned'));
    const out = unique('py');
    const lines = values.map(
      (_, i) => `v = {{ index .Resource.spec.v ${i} }}
open("${out}.${i}.code", "w").write(v)
open("${out}.${i}.str", "w").write("x{{ index .Resource.spec.v ${i} }}y")
open("${out}.${i}.raw", "w").write(r'r{{ index .Resource.spec.v ${i} }}' * 1)
open("${out}.${i}.triple", "w").write("""<{{ index .Resource.spec.v ${i} }}>""")
`,
    );
    const script = `#!/usr/bin/env python3
from __future__ import annotations
${lines.join('')}
n = {{ .Resource.spec.n }}
assert n + 1 == 4, n
ok = {{ .Resource.spec.ok }}
assert ok is True
print("done")  # {{ .Resource.spec.n }}
`;
    const { outputs } = await run({ script }, { v: values, n: 3, ok: true });
    expect(outputs.stdout).toBe('done');
    values.forEach((value, i) => {
      expect(readFileSync(`${out}.${i}.code`, 'utf8')).toBe(value);
      expect(readFileSync(`${out}.${i}.str`, 'utf8')).toBe(`x${value}y`);
      expect(readFileSync(`${out}.${i}.raw`, 'utf8')).toBe(`r${value}`);
      expect(readFileSync(`${out}.${i}.triple`, 'utf8')).toBe(`<${value}>`);
    });
    expect(markersLeft()).toEqual([]);
  });

  it('bash arithmetic cannot run a value: only integers are accepted there', async () => {
    const m = unique('pwned');
    const evil = `a[$(touch ${m})]`;
    for (const script of [
      'if [[ {{ .Resource.spec.replicas }} -lt 1 ]]; then exit 1; fi',
      'if [[ 1 -gt "{{ .Resource.spec.replicas }}" ]]; then exit 1; fi',
      'echo $(( {{ .Resource.spec.replicas }} + 1 ))',
      'echo "$(( {{ .Resource.spec.replicas }} + 1 ))"',
      '(( x = {{ .Resource.spec.replicas }} ))',
      'let "x = {{ .Resource.spec.replicas }}"',
      'arr=(1 2); echo "${arr[{{ .Resource.spec.replicas }}]}"',
      'declare -i n; n={{ .Resource.spec.replicas }}',
    ]) {
      const err = await failure(() => run({ script }, { replicas: evil }));
      expect(err, script).toMatchObject({ reason: 'InvalidValue', permanent: true });
      expect(err.message).toContain('arithmetic');
    }
    expect(existsSync(m)).toBe(false);
    expect(
      (await run({ script: 'echo $(( {{ .Resource.spec.replicas }} + 1 ))' }, { replicas: 4 })).outputs.stdout,
    ).toBe('5');
    expect(
      (await run({ script: '[[ "{{ .Resource.spec.v }}" == "a b" ]] && echo same' }, { v: 'a b' })).outputs.stdout,
    ).toBe('same');
  });

  it('a quoted heredoc never expands an action: refused with a hint', async () => {
    const err = await failure(() => run({ script: "cat <<'EOF'\n{{ .Resource.spec.v }}\nEOF\n" }, { v: 'x' }));
    expect(err).toMatchObject({ reason: 'TemplateError', permanent: true });
    expect(err.message).toContain('quoted heredoc');
  });
});

describe('script: environment and outputs', () => {
  it('exposes the resource, context, names and previous step outputs', async () => {
    const script = `set -eu
test "$RESOURCE_NAME" = my-postgres
test "$RESOURCE_NAMESPACE" = prod
test "$FLOW_NAME" = test-flow
test "$STEP_CREATE_DB_ID" = abc-123
test "$STEP_CREATE_DB_PORT" = 5432
test "$GREETING" = "hello my-postgres"
grep -q '"kind":"Database"' "$FLOWOPS_RESOURCE"
grep -q '"create-db"' "$FLOWOPS_CONTEXT"
test "$HOME" = "$PWD"
echo "count=3" >> "$FLOWOPS_OUTPUTS"
echo "flag=true" >> "$FLOWOPS_OUTPUTS"
echo "url=http://x/?a=b=c" >> "$FLOWOPS_OUTPUTS"
printf 'multi<<END\\nline 1\\nline 2\\nEND\\n' >> "$FLOWOPS_OUTPUTS"
echo "  printed  "`;
    const { outputs } = await run(
      { script, env: { GREETING: 'hello {{ .Resource.metadata.name }}' } },
      {},
      { steps: { 'create-db': { id: 'abc-123', port: 5432 } } },
    );
    expect(outputs).toEqual({
      count: '3',
      flag: 'true',
      url: 'http://x/?a=b=c',
      multi: 'line 1\nline 2',
      exitCode: 0,
      stdout: 'printed',
    });
  });

  it('runs python from the language field and from a shebang', async () => {
    const py =
      'import os\nopen(os.environ["FLOWOPS_OUTPUTS"], "w").write("lang=python\\n")\nprint({{ .Resource.spec.replicas }} * 2)';
    expect((await run({ language: 'python', script: py })).outputs).toEqual({
      lang: 'python',
      exitCode: 0,
      stdout: '6',
    });
    expect((await run({ script: `#!/usr/bin/env python3\n${py}` })).outputs.stdout).toBe('6');
  });

  it('caps stdout at 4 KB; masks secret-named env values in errors, outputs and stdout', async () => {
    const big = await run({ script: 'head -c 10000 /dev/zero | tr "\\0" a' });
    expect((big.outputs.stdout as string).length).toBe(4096);
    const err = await failure(() =>
      run({ script: 'echo "token is $API_TOKEN" >&2; exit 3', env: { API_TOKEN: 's3cr3t-value' } }),
    );
    expect(err).toMatchObject({ exitCode: 3, reason: 'ScriptFailed' });
    expect(err.message).toContain('token is ***');
    expect(err.message).not.toContain('s3cr3t-value');
    const ok = await run({
      script: 'echo "leak=$DB_PASSWORD" >> "$FLOWOPS_OUTPUTS"; echo "$DB_PASSWORD"',
      env: { DB_PASSWORD: 'hunter2' },
    });
    expect(ok.outputs).toMatchObject({ leak: '***', stdout: '***' });
  });

  it('keeps only the tail of a long stderr', async () => {
    const err = await failure(() => run({ script: 'for i in $(seq 1 500); do echo "line $i" >&2; done; exit 2' }));
    expect(err.message).toContain('line 500');
    expect(err.message).not.toContain('line 480\n');
    expect(err.message.length).toBeLessThan(2300);
  });

  it('does not hand the FlowOps process environment to scripts', async () => {
    process.env.FLOWOPS_TEST_REDIS_URL = 'redis://:pw@host';
    try {
      expect((await run({ script: 'echo "${FLOWOPS_TEST_REDIS_URL:-unset}"' })).outputs.stdout).toBe('unset');
    } finally {
      delete process.env.FLOWOPS_TEST_REDIS_URL;
    }
  });
});

describe('script: templates it cannot take', () => {
  it('control structures are a permanent error pointing to env vars', async () => {
    const err = await failure(() => run({ script: 'echo start\n{{ if .Resource.spec.replicas }}echo yes{{ end }}' }));
    expect(err).toMatchObject({ reason: 'TemplateError', permanent: true });
    expect(err.message).toContain('line 2');
    expect(err.message).toContain('environment variables');
  });

  it('render errors name the step field and the line in the script', async () => {
    const err = await failure(() => run({ script: 'echo a\necho {{ .Resource.spec.nope }}' }));
    expect(err).toMatchObject({ reason: 'TemplateError', permanent: true });
    expect(err.message).toContain('template "validate.script"');
    expect(err.message).toContain('line 2');
    await expect(run({ script: 'echo {{ .Resource.spec.replicas ' })).rejects.toMatchObject({
      reason: 'TemplateError',
      permanent: true,
    });
  });

  it('an unsupported interpreter is permanent', async () => {
    await expect(run({ script: '#!/usr/bin/perl\nprint 1' })).rejects.toMatchObject({ permanent: true });
  });
});

describe('script: process lifetime', () => {
  it('the step timeout kills the whole process group, background children included', async () => {
    const marker = sleepMarker();
    const controller = new AbortController();
    const running = run(
      { script: `sleep ${marker} & sleep ${marker} & echo started > "$READY"; wait`, env: { READY: unique('ready') } },
      {},
      { signal: controller.signal },
    );
    // Found by their command line: in a PID namespace the script's $! are not this process's pids.
    const children = await waitFor(
      () => (processesRunning(marker).length === 2 ? processesRunning(marker) : undefined),
      { what: 'children started' },
    );
    expect(children).toHaveLength(2);
    controller.abort(new DOMException('step timeout', 'TimeoutError'));
    const err = await failure(() => running);
    expect(err).toMatchObject({ reason: 'Timeout' });
    expect(err.message).toContain('timed out');
    await waitFor(() => processesRunning(marker).length === 0, { what: 'children killed' });
  });

  it('a script that exits leaves no background process behind', async () => {
    const marker = sleepMarker();
    const { outputs } = await run({ script: `sleep ${marker} & echo left` });
    expect(outputs.stdout).toBe('left');
    await waitFor(() => processesRunning(marker).length === 0, { what: 'background child killed' });
  });

  it('runs in a temp dir that is removed afterwards', async () => {
    const { outputs } = await run({ script: 'pwd' });
    expect(outputs.stdout).toMatch(/flowops-script-/);
    expect(existsSync(outputs.stdout as string)).toBe(false);
  });
});
