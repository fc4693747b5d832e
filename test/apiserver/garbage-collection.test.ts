import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { WIDGET_CRD, widget } from '../fixtures/widgets.js';

let ts: TestServer;
let kubectl: Kubectl;
beforeAll(async () => {
  ts = await startTestServer();
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
});
afterAll(async () => ts?.stop());

async function uidOf(kind: string, name: string, ns = 'default'): Promise<string> {
  return (JSON.parse(await kubectl.ok(['get', kind, name, '-n', ns, '-o', 'json'])) as { metadata: { uid: string } }).metadata.uid;
}

const owned = (name: string, owner: { name: string; uid: string }, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.name, uid: owner.uid, blockOwnerDeletion: true }], ...extra },
  });

async function exists(kind: string, name: string, ns = 'default'): Promise<boolean> {
  const r = await kubectl(['get', kind, name, '-n', ns, '-o', 'name']);
  if (r.code === 0) return true;
  if (r.stderr.includes('NotFound')) return false;
  throw new Error(r.stderr);
}

describe('garbage collection', () => {
  it('deletes dependents in the background when the owner goes', async () => {
    await kubectl.ok(['create', 'configmap', 'owner-bg']);
    const uid = await uidOf('cm', 'owner-bg');
    await kubectl.ok(['apply', '-f', '-'], owned('dep-bg-1', { name: 'owner-bg', uid }));
    await kubectl.ok(['apply', '-f', '-'], owned('dep-bg-2', { name: 'owner-bg', uid }));
    await kubectl.ok(['delete', 'cm', 'owner-bg']);
    await waitFor(async () => !(await exists('cm', 'dep-bg-1')) && !(await exists('cm', 'dep-bg-2')), { what: 'dependents collected' });
  });

  it('with foreground propagation keeps the owner until its dependents are gone', async () => {
    await kubectl.ok(['create', 'configmap', 'owner-fg']);
    const uid = await uidOf('cm', 'owner-fg');
    await kubectl.ok(['apply', '-f', '-'], owned('dep-fg', { name: 'owner-fg', uid }, { finalizers: ['example.com/hold'] }));
    await kubectl.ok(['delete', 'cm', 'owner-fg', '--cascade=foreground', '--wait=false']);
    const owner = JSON.parse(await kubectl.ok(['get', 'cm', 'owner-fg', '-o', 'json'])) as { metadata: { finalizers: string[]; deletionTimestamp: string } };
    expect(owner.metadata.finalizers).toContain('foregroundDeletion');
    await waitFor(async () => JSON.parse(await kubectl.ok(['get', 'cm', 'dep-fg', '-o', 'json'])).metadata.deletionTimestamp, { what: 'dependent marked for deletion' });
    expect(await exists('cm', 'owner-fg')).toBe(true);
    await kubectl.ok(['patch', 'cm', 'dep-fg', '--type', 'merge', '-p', '{"metadata":{"finalizers":null}}']);
    await waitFor(async () => !(await exists('cm', 'owner-fg')), { what: 'owner removed after its dependent' });
  });

  it('with orphan propagation leaves dependents and strips their ownerReference', async () => {
    await kubectl.ok(['create', 'configmap', 'owner-or']);
    const uid = await uidOf('cm', 'owner-or');
    await kubectl.ok(['apply', '-f', '-'], owned('dep-or', { name: 'owner-or', uid }));
    await kubectl.ok(['delete', 'cm', 'owner-or', '--cascade=orphan']);
    await waitFor(async () => !(await exists('cm', 'owner-or')), { what: 'owner gone' });
    const dep = JSON.parse(await kubectl.ok(['get', 'cm', 'dep-or', '-o', 'json'])) as { metadata: { ownerReferences?: unknown[] } };
    expect(dep.metadata.ownerReferences).toBeUndefined();
  });

  it('empties a namespace before deleting it', async () => {
    await kubectl.ok(['create', 'namespace', 'doomed']);
    await kubectl.ok(['create', 'configmap', 'c1', '-n', 'doomed']);
    await kubectl.ok(['create', 'secret', 'generic', 's1', '-n', 'doomed', '--from-literal=a=b']);
    const r = await kubectl(['delete', 'namespace', 'doomed', '--timeout=30s']);
    expect(r.code).toBe(0);
    expect(await exists('namespace', 'doomed', 'default')).toBe(false);
    const leftovers = await kubectl.ok(['get', 'cm,secret', '-n', 'doomed', '-o', 'name']);
    expect(leftovers.trim()).toBe('');
  });

  it('deleting a CRD removes its objects and stops serving the resource', async () => {
    await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
    await kubectl.ok(['apply', '-f', '-'], widget('w-gc', 1));
    await kubectl.ok(['delete', 'crd', 'widgets.example.com']);
    const r = await kubectl(['get', 'widgets']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/doesn't have a resource type "widgets"|could not find the requested resource/);
    // Re-creating the CRD does not resurrect old objects.
    await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
    expect((await kubectl.ok(['get', 'widgets', '-o', 'name'])).trim()).toBe('');
  });
});
