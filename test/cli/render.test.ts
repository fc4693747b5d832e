import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runFlowops } from '../helpers/cli.js';

// `flowops render` as an operator repository's CI runs it: spawned, against repos-example's four
// operators (kubectl, a Helm chart, kustomize, bash and python scripts, http), with real helm and
// kustomize through the executors. The golden files were written by `--update`:
//   flowops render repos-example --objects repos-example/samples --objects test/cli/fixtures/render/alert.yaml \
//     --stub test/cli/fixtures/render/stubs.yaml --expect test/cli/golden --update

const FIXTURES = join(ROOT, 'test/cli/fixtures/render');
const GOLDEN = join(ROOT, 'test/cli/golden');
const EXAMPLES = join(ROOT, 'repos-example');

async function render(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = runFlowops(['render', ...args]);
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

const allSamples = ['--objects', join(EXAMPLES, 'samples'), '--objects', join(FIXTURES, 'alert.yaml')];
const changedLines = (diff: string): string[] => diff.split('\n').filter((l) => /^[-+][^-+]/.test(l));

describe('flowops render', () => {
  it('renders all four examples as the golden files say, with script and http outputs from --stub', async () => {
    const r = await render([EXAMPLES, ...allSamples, '--stub', join(FIXTURES, 'stubs.yaml'), '--expect', GOLDEN]);
    expect(r.stderr).toContain('4 object(s) match');
    expect(r.stdout).toBe('');
    expect(r.code, r.stderr).toBe(0);
    // What the golden files hold: the Helm chart's Deployment, the kustomize base, the stubbed outputs, the status projection.
    expect(readFileSync(join(GOLDEN, 'WebApp-default-shop.yaml'), 'utf8')).toContain('image: nginx:1.27');
    expect(readFileSync(join(GOLDEN, 'WebApp-default-shop.yaml'), 'utf8')).toContain(
      'example.com/deployment-uid: <uid of Deployment default/shop>',
    );
    expect(readFileSync(join(GOLDEN, 'ConfigBundle-default-payments.yaml'), 'utf8')).toContain('name: bundle-defaults');
    expect(readFileSync(join(GOLDEN, 'Alert-default-disk-full.yaml'), 'utf8')).toContain('ticket: T-1001');
    expect(readFileSync(join(GOLDEN, 'Database-default-my-postgres.yaml'), 'utf8')).toContain(
      'StatefulSet my-postgres: 0/3 replicas ready',
    );
  });

  it('runs bash and python script steps for real with --allow-scripts (their outputs equal the stubs)', async () => {
    // Only the http step is stubbed: the stub file's script entries are not used.
    const r = await render([
      EXAMPLES,
      ...allSamples,
      '--stub',
      join(FIXTURES, 'stubs.yaml'),
      '--allow-scripts',
      '--expect',
      GOLDEN,
    ]);
    expect(r.stderr).toContain('4 object(s) match');
    expect(r.code, r.stderr).toBe(0);
  });

  it('prints the rendered objects as YAML without --expect, minus server-set fields', async () => {
    const r = await render([
      join(EXAMPLES, 'database-operator'),
      '--objects',
      join(EXAMPLES, 'samples/my-postgres.yaml'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(GOLDEN, 'Database-default-my-postgres.yaml'), 'utf8'));
    expect(r.stdout).not.toMatch(/uid:|resourceVersion|creationTimestamp|managedFields|lastTransitionTime/);
  });

  it('shows a changed field as a unified diff and exits 1', async () => {
    const samples = mkdtempSync(join(tmpdir(), 'flowops-render-samples-'));
    cpSync(join(EXAMPLES, 'samples'), samples, { recursive: true });
    const webapp = join(samples, 'webapp.yaml');
    writeFileSync(webapp, readFileSync(webapp, 'utf8').replace('image: nginx:1.27', 'image: nginx:1.28'));
    const r = await render([
      EXAMPLES,
      '--objects',
      samples,
      '--objects',
      join(FIXTURES, 'alert.yaml'),
      '--stub',
      join(FIXTURES, 'stubs.yaml'),
      '--expect',
      GOLDEN,
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('1 of 4 object(s) differ');
    expect(r.stdout).toContain(`--- a/${join(GOLDEN, 'WebApp-default-shop.yaml')}`);
    expect(r.stdout).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/m);
    expect(changedLines(r.stdout)).toEqual(['-              image: nginx:1.27', '+              image: nginx:1.28']);
  });

  it('rejects an invalid Flow with file:line: field: problem and exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-render-bad-'));
    cpSync(join(EXAMPLES, 'database-operator'), dir, { recursive: true });
    const flow = join(dir, 'flow.yaml');
    writeFileSync(
      flow,
      readFileSync(flow, 'utf8').replace(
        '        type: kubectl\n        action: apply\n        manifests',
        '        type: kubectll\n        action: apply\n        manifests',
      ),
    );
    const r = await render([dir, '--objects', join(EXAMPLES, 'samples/my-postgres.yaml')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${flow}:13: spec.reconcile.steps[0].type: unknown step type "kubectll"`);
    expect(r.stdout).toBe('');
  });

  it('renders a failing step as the Ready condition it writes, and says so on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-render-failing-'));
    cpSync(join(EXAMPLES, 'database-operator'), dir, { recursive: true });
    const flow = join(dir, 'flow.yaml');
    writeFileSync(flow, readFileSync(flow, 'utf8').replace('apiVersion: apps/v1', 'apiVersion: nope.example.com/v1'));
    const r = await render([dir, '--objects', join(EXAMPLES, 'samples/my-postgres.yaml')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('children: []');
    expect(r.stdout).toContain('reason: UnknownKind');
    expect(r.stderr).toContain(
      'flowops render: Database default/my-postgres: reconcile failed (UnknownKind): step "create-statefulset" failed',
    );
  });

  it("reports a failing template at flow.yaml's own line and column, not the line inside its manifests block", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-render-required-'));
    cpSync(join(EXAMPLES, 'database-operator'), dir, { recursive: true });
    const flow = join(dir, 'flow.yaml');
    const text = readFileSync(flow, 'utf8').replace(
      'image: {{ .Resource.spec.engine }}:latest',
      'image: {{ .Resource.spec.engine }}:{{ required "spec.version is required" .Resource.spec.version }}',
    );
    writeFileSync(flow, text);
    // The Database kind declares an optional spec.version, so the type check lets the template
    // through and the `required` fails at render time, where its position is the point here.
    const crd = join(dir, 'crd.yaml');
    writeFileSync(
      crd,
      readFileSync(crd, 'utf8').replace(
        '                engine:\n                  type: string\n',
        '                engine:\n                  type: string\n                version:\n                  type: string\n',
      ),
    );
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('spec.version is required')) + 1;
    const column = (lines[line - 1] ?? '').indexOf('required "') + 1;
    // Far below the block's first line: a position inside the block would be a much smaller number.
    expect(line).toBeGreaterThan(30);
    const r = await render([dir, '--objects', join(EXAMPLES, 'samples/my-postgres.yaml')]);
    expect(r.code, r.stderr).toBe(0);
    const at = `template "create-statefulset.manifests": spec.version is required (${flow}:${line}:${column})`;
    expect(r.stderr).toContain(at);
    expect(r.stdout).toContain(`${flow}:${line}:${column}`);
  });

  it('names the watched kinds when an --objects object is of another kind', async () => {
    const r = await render([
      join(EXAMPLES, 'webhook-notifier'),
      '--objects',
      join(EXAMPLES, 'samples/my-postgres.yaml'),
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `${join(EXAMPLES, 'samples/my-postgres.yaml')}:1: kind: Database (example.com/v1) is not watched by any Flow; the Flows watch: Alert (example.com/v1)`,
    );
  });

  it('renders {{ .Now }} as --now (a fixed default), so golden files do not follow the clock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-render-now-'));
    cpSync(join(EXAMPLES, 'database-operator'), dir, { recursive: true });
    const flow = join(dir, 'flow.yaml');
    writeFileSync(
      flow,
      readFileSync(flow, 'utf8').replace(
        '            namespace: {{ .Resource.metadata.namespace }}\n          spec:\n            serviceName',
        '            namespace: {{ .Resource.metadata.namespace }}\n            annotations:\n              example.com/rendered-at: {{ .Now | quote }}\n          spec:\n            serviceName',
      ),
    );
    const fixed = await render([dir, '--objects', join(EXAMPLES, 'samples/my-postgres.yaml')]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('example.com/rendered-at: 2025-01-01T00:00:00Z');
    const chosen = await render([
      dir,
      '--objects',
      join(EXAMPLES, 'samples/my-postgres.yaml'),
      '--now',
      '2030-06-01T12:00:00Z',
    ]);
    expect(chosen.stdout).toContain('example.com/rendered-at: 2030-06-01T12:00:00Z');
  });

  it('refuses a sample outside the namespace its Flow watches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-render-ns-'));
    cpSync(join(EXAMPLES, 'database-operator'), dir, { recursive: true });
    const flow = join(dir, 'flow.yaml');
    writeFileSync(
      flow,
      readFileSync(flow, 'utf8').replace('    kind: Database\n', '    kind: Database\n    namespace: databases\n'),
    );
    const r = await render([dir, '--objects', join(EXAMPLES, 'samples/my-postgres.yaml')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      'metadata.namespace: "default" is not watched: the Flows watching Database (example.com/v1) watch only namespace databases',
    );
  });

  it('says a sample kind has no CRD among the paths, at once', async () => {
    const r = await render([
      join(EXAMPLES, 'database-operator/flow.yaml'),
      '--objects',
      join(EXAMPLES, 'samples/my-postgres.yaml'),
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      'Database/default/my-postgres: no matches for kind "Database" in version "example.com/v1"; is its CustomResourceDefinition under the paths given?',
    );
  });

  it('names the Flow and step of a script or http step without a stub', async () => {
    const r = await render([join(EXAMPLES, 'webhook-notifier'), '--objects', join(FIXTURES, 'alert.yaml')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('Flow webhook-notifier: step "classify" (script) has no stub');
    expect(r.stderr).toContain('Flow webhook-notifier: step "notify" (http) has no stub');
    expect(r.stderr).toContain('--allow-http');
  });
});
