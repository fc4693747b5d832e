import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { WIDGET_CRD, widget } from '../fixtures/widgets.js';
import { KUBERNETES_VERSION } from '../../src/apiserver/server-defaults.js';

let ts: TestServer;
let kubectl: Kubectl;

beforeAll(async () => {
  ts = await startTestServer();
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
});
afterAll(async () => ts?.stop());

describe('embedded API server driven by the real kubectl', () => {
  it('serves a CRD the moment it is applied and marks it Established', async () => {
    const crd = parse(await kubectl.ok(['get', 'crd', 'widgets.example.com', '-o', 'yaml'])) as {
      status: { conditions: Array<{ type: string; status: string }> };
    };
    expect(crd.status.conditions).toContainEqual(expect.objectContaining({ type: 'Established', status: 'True' }));
    const resources = await kubectl.ok(['api-resources', '--api-group', 'example.com']);
    expect(resources).toMatch(/widgets\s+wd\s+example.com\/v1\s+true\s+Widget/);
  });

  it('applies a custom resource and reads it back with get -o yaml', async () => {
    await kubectl.ok(['apply', '-f', '-'], widget('w1', 3));
    const w = parse(await kubectl.ok(['get', 'widget', 'w1', '-o', 'yaml'])) as Record<string, any>;
    expect(w.spec).toEqual({ size: 3 });
    expect(w.metadata.generation).toBe(1);
    expect(w.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(w.metadata.resourceVersion)).toBeGreaterThan(0);
    // A second apply that changes the spec goes through kubectl's merge patch and bumps generation.
    await kubectl.ok(['apply', '-f', '-'], widget('w1', 4));
    const w2 = parse(await kubectl.ok(['get', 'wd', 'w1', '-o', 'yaml'])) as Record<string, any>;
    expect(w2.spec.size).toBe(4);
    expect(w2.metadata.generation).toBe(2);
  });

  it('answers a schema violation with 422 naming the field', async () => {
    const r = await kubectl(['apply', '-f', '-'], widget('bad', 500, '  color: purple\n'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The Widget "bad" is invalid');
    expect(r.stderr).toContain('spec.size');
    expect(r.stderr).toContain('spec.color');
    expect((await kubectl(['get', 'widget', 'bad'])).stderr).toContain('NotFound');
  });

  it('rejects unknown fields under the default strict validation', async () => {
    const r = await kubectl(['apply', '-f', '-'], widget('strict', 1, '  flavour: lemon\n'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('unknown field "spec.flavour"');
  });

  it('patches with --type merge and --type json, and rejects a json patch that cannot apply', async () => {
    await kubectl.ok(['apply', '-f', '-'], widget('w2', 1));
    await kubectl.ok(['patch', 'widget', 'w2', '--type', 'merge', '-p', '{"spec":{"color":"red"}}']);
    await kubectl.ok([
      'patch',
      'widget',
      'w2',
      '--type',
      'json',
      '-p',
      '[{"op":"replace","path":"/spec/size","value":7},{"op":"add","path":"/spec/tags","value":["a"]}]',
    ]);
    const w = JSON.parse(await kubectl.ok(['get', 'widget', 'w2', '-o', 'json'])) as { spec: unknown };
    expect(w.spec).toEqual({ size: 7, color: 'red', tags: ['a'] });
    const bad = await kubectl([
      'patch',
      'widget',
      'w2',
      '--type',
      'json',
      '-p',
      '[{"op":"remove","path":"/spec/nothing"}]',
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('The request is invalid');
    const strategic = await kubectl(['patch', 'widget', 'w2', '-p', '{"spec":{"size":8}}']);
    expect(strategic.stderr).toContain('is not supported');
  });

  it('streams changes to get -w while another client writes', async () => {
    await kubectl.ok(['apply', '-f', '-'], widget('watched', 1));
    const watcher = kubectl.spawn([
      'get',
      'widgets',
      '-w',
      '-o',
      'custom-columns=NAME:.metadata.name,SIZE:.spec.size',
      '--no-headers',
    ]);
    let out = '';
    watcher.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(() => /watched\s+1/.test(out), { what: 'initial row' });
      await kubectl.ok(['patch', 'widget', 'watched', '--type', 'merge', '-p', '{"spec":{"size":9}}']);
      await waitFor(() => /watched\s+9/.test(out), { what: 'the patched row in the watch' });
    } finally {
      watcher.kill();
    }
  });

  it('lists by label selector with every operator', async () => {
    await kubectl.ok(
      ['apply', '-f', '-'],
      [widget('sel-a', 10), widget('sel-b', 20), widget('sel-c', 30)].join('---\n'),
    );
    const names = async (sel: string): Promise<string[]> =>
      (await kubectl.ok(['get', 'widgets', '-l', sel, '-o', 'name'])).trim().split('\n').filter(Boolean).sort();
    expect(await names('size=s10')).toEqual(['widget.example.com/sel-a']);
    expect(await names('size==s20')).toEqual(['widget.example.com/sel-b']);
    expect(await names('size in (s10,s30)')).toEqual(['widget.example.com/sel-a', 'widget.example.com/sel-c']);
    expect(await names('size notin (s10,s20),size')).toContain('widget.example.com/sel-c');
    expect(await names('size notin (s10,s20),size')).not.toContain('widget.example.com/sel-a');
    expect(await names('app=demo,size!=s10')).not.toContain('widget.example.com/sel-a');
    expect(await names('!app')).toEqual([]);
  });

  it('holds a deleted object until its last finalizer is removed', async () => {
    await kubectl.ok(
      ['apply', '-f', '-'],
      widget('held', 1).replace('  labels:', '  finalizers: [example.com/hold]\n  labels:'),
    );
    const del = await kubectl(['delete', 'widget', 'held', '--wait=false']);
    expect(del.code).toBe(0);
    const w = JSON.parse(await kubectl.ok(['get', 'widget', 'held', '-o', 'json'])) as {
      metadata: { deletionTimestamp?: string };
    };
    expect(w.metadata.deletionTimestamp).toBeTruthy();
    await kubectl.ok(['patch', 'widget', 'held', '--type', 'merge', '-p', '{"metadata":{"finalizers":null}}']);
    const gone = await kubectl(['get', 'widget', 'held']);
    expect(gone.stderr).toContain('widgets.example.com "held" not found');
  });

  it('deletes and waits for the object to go (kubectl 1.35 WatchList path)', async () => {
    await kubectl.ok(['apply', '-f', '-'], widget('bye', 1));
    const r = await kubectl(['delete', 'widget', 'bye', '--timeout=20s']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('deleted');
  });

  it('creates namespaces, configmaps and secrets (kubectl sends protobuf) and uses them', async () => {
    await kubectl.ok(['create', 'namespace', 'team-a']);
    await kubectl.ok(['create', 'configmap', 'cfg', '-n', 'team-a', '--from-literal=a=b']);
    await kubectl.ok(['create', 'secret', 'generic', 's1', '-n', 'team-a', '--from-literal=x=y']);
    const cm = JSON.parse(await kubectl.ok(['get', 'cm', 'cfg', '-n', 'team-a', '-o', 'json'])) as { data: unknown };
    expect(cm.data).toEqual({ a: 'b' });
    const s = JSON.parse(await kubectl.ok(['get', 'secret', 's1', '-n', 'team-a', '-o', 'json'])) as {
      data: Record<string, string>;
    };
    expect(Buffer.from(s.data.x!, 'base64').toString()).toBe('y');
    const missing = await kubectl(['create', 'configmap', 'x', '-n', 'nope', '--from-literal=a=b']);
    expect(missing.stderr).toContain('namespaces "nope" not found');
  });

  it('reports health and version', async () => {
    expect(await kubectl.ok(['get', '--raw', '/healthz'])).toBe('ok');
    const v = JSON.parse(await kubectl.ok(['version', '-o', 'json'])) as { serverVersion: { gitVersion: string } };
    expect(v.serverVersion.gitVersion).toBe(`v${KUBERNETES_VERSION}`);
  });
});
