import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { ROOT } from '../helpers/cli.js';
import { attempted, flowSource, flowYaml, gitopsEnvironment } from '../gitops/fixtures.js';
import { waitFor } from '../helpers/wait.js';

// config/argocd/health.lua, the Argo CD health check docs/gitops-tools.md installs for FlowOps
// kinds, run by a real Lua 5.1 (the language of gopher-lua, Argo CD's interpreter) the way Argo CD
// runs it: the live object as the global `obj`, the script's body returning `hs`. Argo CD itself
// is too heavy to build here; its health contract is this small.

const LUA = 'lua5.1';
const haveLua = spawnSync(LUA, ['-v'], { encoding: 'utf8' }).status === 0;
if (!haveLua) console.warn(`skipped the Argo CD health checks: no ${LUA} (Debian package lua5.1; .ci/run installs it)`);
const SCRIPT = readFileSync(join(ROOT, 'config/argocd/health.lua'), 'utf8');

/** A JSON value as a Lua table constructor (JSON null is Lua's absent nil). */
function luaValue(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'string') return JSON.stringify(v); // JSON string escapes are valid Lua escapes for what objects hold
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `{${v.map(luaValue).join(', ')}}`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `[${JSON.stringify(k)}] = ${luaValue(x)}`)
    .join(', ')}}`;
}

function health(obj: unknown): { status: string; message: string } {
  const program = `obj = ${luaValue(obj)}\nlocal function check()\n${SCRIPT}\nend\nlocal hs = check()\nio.write(hs.status, "\\n", hs.message or "")\n`;
  const r = spawnSync(LUA, ['-'], { input: program, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`lua: ${r.stderr}`);
  const [status, ...message] = r.stdout.split('\n');
  return { status: status!, message: message.join('\n') };
}

const flowWith = (conditions: unknown[] | undefined, generation = 2) => ({
  apiVersion: 'flowops.io/v1',
  kind: 'Flow',
  metadata: { name: 'f', generation },
  ...(conditions ? { status: { conditions } } : {}),
});

describe.skipIf(!haveLua)('the Argo CD health check of FlowOps objects (config/argocd/health.lua)', () => {
  it.each([
    ['no status yet', flowWith(undefined), 'Progressing', 'Waiting for FlowOps to reconcile'],
    [
      'Ready=True',
      flowWith([
        { type: 'Ready', status: 'True', reason: 'Succeeded', message: 'watching Widget', observedGeneration: 2 },
      ]),
      'Healthy',
      'watching Widget',
    ],
    [
      'Ready=True for an older generation',
      flowWith([{ type: 'Ready', status: 'True', reason: 'Succeeded', message: 'old', observedGeneration: 1 }]),
      'Progressing',
      'Waiting for FlowOps to reconcile',
    ],
    [
      'Ready=False, retrying',
      flowWith([
        { type: 'Ready', status: 'False', reason: 'ReconcileFailed', message: '1 failed', observedGeneration: 2 },
        { type: 'Reconciling', status: 'True', observedGeneration: 2 },
      ]),
      'Progressing',
      '1 failed',
    ],
    [
      'Stalled=True',
      flowWith([
        { type: 'Ready', status: 'False', reason: 'InvalidSpec', message: 'bad', observedGeneration: 2 },
        {
          type: 'Stalled',
          status: 'True',
          reason: 'InvalidSpec',
          message: 'spec.watch.kind: required',
          observedGeneration: 2,
        },
      ]),
      'Degraded',
      'spec.watch.kind: required',
    ],
    [
      'suspended',
      flowWith([{ type: 'Ready', status: 'True', reason: 'Suspended', message: 'suspended', observedGeneration: 2 }]),
      'Suspended',
      'suspended',
    ],
    [
      'a message with quotes, newlines and backslashes',
      flowWith([{ type: 'Ready', status: 'True', reason: 'Succeeded', message: 'a "b"\n\\c' }]),
      'Healthy',
      'a "b"\n\\c',
    ],
  ])('%s', (_name, obj, status, message) => {
    expect(health(obj)).toEqual({ status, message });
  });

  describe('on the objects FlowOps writes', () => {
    const { env, git } = gitopsEnvironment();
    beforeAll(async () => {
      const broken = flowYaml('broken', 'x', 'Widget')
        .replace('name: "{{ .Resource.metadata.name }}-x"', 'name: "{{ .Resource.metadata.name }}_Bad"')
        .replace('kind: Widget', 'kind: Widget\n    labelSelector: { matchLabels: { flow: broken } }');
      const good = flowYaml('greeter', 'v1', 'Widget').replace(
        'kind: Widget',
        'kind: Widget\n    labelSelector: { matchLabels: { flow: greeter } }',
      );
      for (const doc of [WIDGET_CRD, good, broken]) await env().kubectl.ok(['apply', '-f', '-'], doc);
    });

    it('a working Flow, its Ready object, a Stalled object and an applied FlowSource', async () => {
      const kube = env().kube;
      const widget = (name: string, flow: string): KubeObject => ({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name, namespace: 'default', labels: { flow } },
        spec: { size: 1 },
      });
      await kube.create(widget('good', 'greeter'));
      await kube.create(widget('bad', 'broken'));
      const get = (kind: string, name: string, apiVersion = 'example.com/v1') =>
        kube.get({ apiVersion, kind, name, namespace: 'default' });
      // Progressing until its reconcile has written Ready for its generation, then Healthy.
      await waitFor(async () => health(await get('Widget', 'good')).status === 'Healthy', {
        what: 'Widget good Healthy',
      });
      const badWidget = await waitFor(
        async () => (health(await get('Widget', 'bad')).status === 'Degraded' ? get('Widget', 'bad') : undefined),
        { what: 'Widget bad Stalled' },
      );
      expect(health(badWidget).message).toContain('bad_Bad');
      await waitFor(async () => health(await get('Flow', 'greeter', 'flowops.io/v1')).status === 'Healthy', {
        what: 'Flow greeter Healthy',
      });

      const repo = git().repo('health');
      const sha = await repo.commit({
        'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-git\n  namespace: default\n',
      });
      await kube.create(flowSource('health', repo.url));
      await attempted(kube, 'health', sha);
      await waitFor(async () => health(await get('FlowSource', 'health', 'flowops.io/v1')).status === 'Healthy', {
        what: 'FlowSource health Healthy',
      });
      await kube.patch(
        { apiVersion: 'flowops.io/v1', kind: 'FlowSource', name: 'health', namespace: 'default' },
        { spec: { suspend: true } },
        'merge',
      );
      await waitFor(async () => health(await get('FlowSource', 'health', 'flowops.io/v1')).status === 'Suspended', {
        what: 'FlowSource health Suspended',
      });
    });
  });
});
