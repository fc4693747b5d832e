import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { binaryVersion, KUBECTL, kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { WIDGET_CRD, widget } from '../fixtures/widgets.js';

const SDK = '/usr/lib/google-cloud-sdk/bin';
const CANDIDATES: Array<[string, string]> = [
  ['1.27', join(SDK, 'kubectl.1.27')],
  ['1.30', join(SDK, 'kubectl.1.30')],
  ['1.32', join(SDK, 'kubectl.1.32')],
  ['1.33', join(SDK, 'kubectl.1.33')],
  ['1.35', KUBECTL],
];
const present = CANDIDATES.filter(([minor, path]) => {
  if (existsSync(path)) return true;
  console.log(`kubectl ${minor}: skipped, no binary at ${path}`);
  return false;
});

describe.each(present)('kubectl %s against the embedded API server', (minor, binary) => {
  let ts: TestServer;
  let kubectl: Kubectl;
  const ns = `m${minor.replace('.', '-')}`;
  beforeAll(async () => {
    ts = await startTestServer();
    const cache = mkdtempSync(join(tmpdir(), 'kubectl-matrix-'));
    const editor = join(cache, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/size: 3$/size: 77/" "$1"\n');
    chmodSync(editor, 0o755);
    kubectl = kubectlFor(ts.kubeconfig, cache, binary, { KUBE_EDITOR: editor });
    expect(binaryVersion(binary)).toContain(`v${minor}.`);
    await kubectl.ok(['create', 'namespace', ns]);
    await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
  });
  afterAll(async () => ts?.stop());

  it('apply (client-side and server-side), get -o yaml, replace', async () => {
    await kubectl.ok(['apply', '-n', ns, '-f', '-'], widget('a', 3).replace('namespace: default', `namespace: ${ns}`));
    await kubectl.ok(
      ['apply', '-n', ns, '--server-side', '-f', '-'],
      widget('b', 5).replace('namespace: default', `namespace: ${ns}`),
    );
    expect(await kubectl.ok(['get', 'widget', 'a', '-n', ns, '-o', 'yaml'])).toMatch(/size: 3/);
    const cm = (v: string) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: ns }, data: { v } });
    await kubectl.ok(['apply', '-f', '-'], cm('1'));
    await kubectl.ok(['replace', '-f', '-'], cm('2'));
    expect(JSON.parse(await kubectl.ok(['get', 'cm', 'cfg', '-n', ns, '-o', 'json'])).data.v).toBe('2');
  });

  it('get renders server-side tables: printer columns, -o wide, -A, -l, --sort-by, --show-labels', async () => {
    // A CRD that declares printer columns gets exactly those after NAME (no implicit AGE), as kube-apiserver does.
    const table = await kubectl.ok(['get', 'widgets', '-n', ns]);
    expect(table).toMatch(/^NAME\s+SIZE\n/);
    expect(table).toMatch(/\na\s+3\n/);
    const wide = await kubectl.ok(['get', 'widgets', '-n', ns, '-o', 'wide']);
    expect(wide).toMatch(/^NAME\s+SIZE\s+COLOR\n/);
    const all = await kubectl.ok(['get', 'widgets', '-A']);
    expect(all).toMatch(new RegExp(`^NAMESPACE\\s+NAME\\s+SIZE\\n${ns}\\s+a\\s+3`));
    expect(await kubectl.ok(['get', 'cm', 'cfg', '-n', ns])).toMatch(/^NAME\s+DATA\s+AGE\ncfg\s+1\s+\d+s\n/);
    expect(await kubectl.ok(['get', 'widgets', '-n', ns, '-l', 'size=s5', '-o', 'name'])).toBe(
      'widget.example.com/b\n',
    );
    const sorted = await kubectl.ok([
      'get',
      'widgets',
      '-n',
      ns,
      '--sort-by=.spec.size',
      '--no-headers',
      '-o',
      'custom-columns=N:.metadata.name',
    ]);
    expect(sorted.trim().split('\n')).toEqual(['a', 'b']);
    expect(await kubectl.ok(['get', 'widgets', '-n', ns, '--show-labels'])).toMatch(/LABELS\n.*app=demo/);
    expect(await kubectl.ok(['get', 'namespaces', ns])).toMatch(new RegExp(`^NAME\\s+STATUS\\s+AGE\\n${ns}\\s+Active`));
  });

  it('get -w prints changes made by another client', async () => {
    const watcher = kubectl.spawn(['get', 'widgets', '-n', ns, '-w']);
    let out = '';
    watcher.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(() => /\nb\s+5/.test(out), { what: 'initial rows' });
      await kubectl.ok(['patch', 'widget', 'b', '-n', ns, '--type', 'merge', '-p', '{"spec":{"size":6}}']);
      await waitFor(() => /\nb\s+6/.test(out), { what: 'updated row' });
    } finally {
      watcher.kill();
    }
  });

  it('patch (merge, json, strategic), label, annotate, edit', async () => {
    await kubectl.ok(['patch', 'widget', 'a', '-n', ns, '--type', 'merge', '-p', '{"spec":{"color":"red"}}']);
    await kubectl.ok([
      'patch',
      'widget',
      'a',
      '-n',
      ns,
      '--type',
      'json',
      '-p',
      '[{"op":"add","path":"/spec/tags","value":["x"]}]',
    ]);
    await kubectl.ok(['patch', 'cm', 'cfg', '-n', ns, '-p', '{"data":{"w":"strategic"}}']);
    await kubectl.ok(['label', 'widget', 'a', '-n', ns, 'tier=gold']);
    await kubectl.ok(['annotate', 'cm', 'cfg', '-n', ns, 'note=x']);
    await kubectl.ok(['edit', 'widget', 'a', '-n', ns]);
    const a = JSON.parse(await kubectl.ok(['get', 'widget', 'a', '-n', ns, '-o', 'json']));
    expect(a.spec).toEqual({ size: 77, color: 'red', tags: ['x'] });
    expect(a.metadata.labels.tier).toBe('gold');
    const cfg = JSON.parse(await kubectl.ok(['get', 'cm', 'cfg', '-n', ns, '-o', 'json']));
    expect(cfg.data).toEqual({ v: '2', w: 'strategic' });
    expect(cfg.metadata.annotations.note).toBe('x');
  });

  it('describe shows the events of an object', async () => {
    const uid = JSON.parse(await kubectl.ok(['get', 'widget', 'a', '-n', ns, '-o', 'json'])).metadata.uid;
    await kubectl.ok(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'a.1', namespace: ns },
        involvedObject: { apiVersion: 'example.com/v1', kind: 'Widget', name: 'a', namespace: ns, uid },
        reason: 'Reconciled',
        message: 'all good',
        type: 'Normal',
        firstTimestamp: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
        lastTimestamp: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
        count: 1,
        source: { component: 'flowops' },
      }),
    );
    const out = await kubectl.ok(['describe', 'widget', 'a', '-n', ns]);
    expect(out).toMatch(/Name:\s+a/);
    expect(out).toMatch(/Events:[\s\S]*Reconciled[\s\S]*all good/);
  });

  it('wait --for=condition sees a status change', async () => {
    const wait = kubectl(['wait', '--for=condition=Ready', 'widget/b', '-n', ns, '--timeout=30s']);
    await kubectl.ok([
      'patch',
      'widget',
      'b',
      '-n',
      ns,
      '--subresource=status',
      '--type',
      'merge',
      '-p',
      '{"status":{"conditions":[{"type":"Ready","status":"True"}]}}',
    ]);
    const r = await wait;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('condition met');
  });

  it('delete, with and without finalizers', async () => {
    await kubectl.ok(['delete', 'widget', 'a', '-n', ns]);
    expect((await kubectl(['get', 'widget', 'a', '-n', ns])).stderr).toContain('not found');
    await kubectl.ok([
      'patch',
      'widget',
      'b',
      '-n',
      ns,
      '--type',
      'merge',
      '-p',
      '{"metadata":{"finalizers":["example.com/hold"]}}',
    ]);
    const del = kubectl(['delete', 'widget', 'b', '-n', ns, '--timeout=30s']);
    await waitFor(
      async () =>
        JSON.parse(await kubectl.ok(['get', 'widget', 'b', '-n', ns, '-o', 'json'])).metadata.deletionTimestamp,
      { what: 'deletionTimestamp' },
    );
    await kubectl.ok(['patch', 'widget', 'b', '-n', ns, '--type', 'merge', '-p', '{"metadata":{"finalizers":null}}']);
    expect((await del).code).toBe(0);
  });

  it('create namespace, configmap and secret', async () => {
    await kubectl.ok(['create', 'namespace', `${ns}-x`]);
    await kubectl.ok(['create', 'configmap', 'made', '-n', `${ns}-x`, '--from-literal=k=v']);
    await kubectl.ok(['create', 'secret', 'generic', 'made', '-n', `${ns}-x`, '--from-literal=k=v']);
    expect(await kubectl.ok(['get', 'cm,secret', '-n', `${ns}-x`, '-o', 'name'])).toBe('configmap/made\nsecret/made\n');
  });
});
