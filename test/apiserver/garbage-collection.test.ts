import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';
import { WIDGET_CRD, widget } from '../fixtures/widgets.js';

const env = useTestServer();

async function uidOf(kind: string, name: string, ns = 'default'): Promise<string> {
  return (
    JSON.parse(await env.kubectl.ok(['get', kind, name, '-n', ns, '-o', 'json'])) as { metadata: { uid: string } }
  ).metadata.uid;
}

const owned = (name: string, owner: { name: string; uid: string }, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: owner.name, uid: owner.uid, blockOwnerDeletion: true },
      ],
      ...extra,
    },
  });

async function exists(kind: string, name: string, ns = 'default'): Promise<boolean> {
  const r = await env.kubectl(['get', kind, name, '-n', ns, '-o', 'name']);
  if (r.code === 0) return true;
  if (r.stderr.includes('NotFound')) return false;
  throw new Error(r.stderr);
}

describe('garbage collection', () => {
  it('deletes dependents in the background when the owner goes', async () => {
    await env.kubectl.ok(['create', 'configmap', 'owner-bg']);
    const uid = await uidOf('cm', 'owner-bg');
    await env.kubectl.ok(['apply', '-f', '-'], owned('dep-bg-1', { name: 'owner-bg', uid }));
    await env.kubectl.ok(['apply', '-f', '-'], owned('dep-bg-2', { name: 'owner-bg', uid }));
    await env.kubectl.ok(['delete', 'cm', 'owner-bg']);
    await waitFor(async () => !(await exists('cm', 'dep-bg-1')) && !(await exists('cm', 'dep-bg-2')), {
      what: 'dependents collected',
    });
  });

  it('with foreground propagation keeps the owner until its dependents are gone', async () => {
    await env.kubectl.ok(['create', 'configmap', 'owner-fg']);
    const uid = await uidOf('cm', 'owner-fg');
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      owned('dep-fg', { name: 'owner-fg', uid }, { finalizers: ['example.com/hold'] }),
    );
    await env.kubectl.ok(['delete', 'cm', 'owner-fg', '--cascade=foreground', '--wait=false']);
    const owner = JSON.parse(await env.kubectl.ok(['get', 'cm', 'owner-fg', '-o', 'json'])) as {
      metadata: { finalizers: string[]; deletionTimestamp: string };
    };
    expect(owner.metadata.finalizers).toContain('foregroundDeletion');
    await waitFor(
      async () => JSON.parse(await env.kubectl.ok(['get', 'cm', 'dep-fg', '-o', 'json'])).metadata.deletionTimestamp,
      { what: 'dependent marked for deletion' },
    );
    expect(await exists('cm', 'owner-fg')).toBe(true);
    await env.kubectl.ok(['patch', 'cm', 'dep-fg', '--type', 'merge', '-p', '{"metadata":{"finalizers":null}}']);
    await waitFor(async () => !(await exists('cm', 'owner-fg')), { what: 'owner removed after its dependent' });
  });

  it('with orphan propagation leaves dependents and strips their ownerReference', async () => {
    await env.kubectl.ok(['create', 'configmap', 'owner-or']);
    const uid = await uidOf('cm', 'owner-or');
    await env.kubectl.ok(['apply', '-f', '-'], owned('dep-or', { name: 'owner-or', uid }));
    await env.kubectl.ok(['delete', 'cm', 'owner-or', '--cascade=orphan']);
    await waitFor(async () => !(await exists('cm', 'owner-or')), { what: 'owner gone' });
    const dep = JSON.parse(await env.kubectl.ok(['get', 'cm', 'dep-or', '-o', 'json'])) as {
      metadata: { ownerReferences?: unknown[] };
    };
    expect(dep.metadata.ownerReferences).toBeUndefined();
  });

  it('empties a namespace before deleting it', async () => {
    await env.kubectl.ok(['create', 'namespace', 'doomed']);
    await env.kubectl.ok(['create', 'configmap', 'c1', '-n', 'doomed']);
    await env.kubectl.ok(['create', 'secret', 'generic', 's1', '-n', 'doomed', '--from-literal=a=b']);
    const r = await env.kubectl(['delete', 'namespace', 'doomed', '--timeout=30s']);
    expect(r.code).toBe(0);
    expect(await exists('namespace', 'doomed', 'default')).toBe(false);
    const leftovers = await env.kubectl.ok(['get', 'cm,secret', '-n', 'doomed', '-o', 'name']);
    expect(leftovers.trim()).toBe('');
  });

  it('deleting a CRD removes its objects and stops serving the resource', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
    await env.kubectl.ok(['apply', '-f', '-'], widget('w-gc', 1));
    await env.kubectl.ok(['delete', 'crd', 'widgets.example.com']);
    const r = await env.kubectl(['get', 'widgets']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/doesn't have a resource type "widgets"|could not find the requested resource/);
    // Re-creating the CRD does not resurrect old objects.
    await env.kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
    expect((await env.kubectl.ok(['get', 'widgets', '-o', 'name'])).trim()).toBe('');
  });
});
