import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/apiserver.js';

const env = useTestServer();

interface Container {
  name: string;
  image: string;
  env?: Array<{ name: string; value: string }>;
  ports?: Array<{ containerPort: number; name?: string; protocol?: string }>;
}

const deployment = (containers: Container[], replicas = 2): string =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers } },
    },
  });

/** A container as kube-apiserver stores it: with SetDefaults_Container's fields and TCP ports. */
const served = (c: Container) => ({
  ...c,
  ...(c.ports ? { ports: c.ports.map((p) => ({ protocol: 'TCP', ...p })) } : {}),
  imagePullPolicy: 'IfNotPresent',
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
});

async function liveContainers(): Promise<Container[]> {
  const d = JSON.parse(await env.kubectl.ok(['get', 'deployment', 'web', '-o', 'json'])) as {
    spec: { template: { spec: { containers: Container[] } } };
  };
  return d.spec.template.spec.containers;
}

describe('kubectl apply of a Deployment (client-side apply → strategic merge patch)', () => {
  it('merges containers by name, env by name and ports by containerPort across four applies', async () => {
    const nginx: Container = {
      name: 'nginx',
      image: 'nginx:1.25',
      env: [
        { name: 'MODE', value: 'a' },
        { name: 'KEEP', value: 'k' },
      ],
      ports: [
        { containerPort: 80, name: 'http' },
        { containerPort: 443, name: 'https' },
      ],
    };
    await env.kubectl.ok(['apply', '-f', '-'], deployment([nginx]));
    expect(await liveContainers()).toEqual([nginx].map(served));

    // A container added.
    const sidecar: Container = { name: 'sidecar', image: 'busybox:1.36' };
    await env.kubectl.ok(['apply', '-f', '-'], deployment([nginx, sidecar]));
    expect(await liveContainers()).toEqual([nginx, sidecar].map(served));

    // An env var changed and a port removed in nginx (the others keep their order and values).
    const nginx2: Container = {
      ...nginx,
      image: 'nginx:1.26',
      env: [
        { name: 'MODE', value: 'b' },
        { name: 'KEEP', value: 'k' },
      ],
      ports: [{ containerPort: 80, name: 'http' }],
    };
    await env.kubectl.ok(['apply', '-f', '-'], deployment([nginx2, sidecar]));
    expect(await liveContainers()).toEqual([nginx2, sidecar].map(served));

    // A container removed ($patch: delete) and the replicas changed.
    await env.kubectl.ok(['apply', '-f', '-'], deployment([nginx2], 3));
    expect(await liveContainers()).toEqual([nginx2].map(served));
    const d = JSON.parse(await env.kubectl.ok(['get', 'deploy', 'web', '-o', 'json'])) as {
      spec: { replicas: number };
      metadata: { generation: number };
    };
    expect(d.spec.replicas).toBe(3);
    expect(d.metadata.generation).toBe(4);
  });

  it('patches with the default strategic type without directives, merging by the built-in keys', async () => {
    await env.kubectl.ok([
      'patch',
      'deployment',
      'web',
      '-p',
      JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } }),
    ]);
    const [c] = await liveContainers();
    expect(c).toMatchObject({
      name: 'nginx',
      image: 'nginx:1.27',
      env: [
        { name: 'MODE', value: 'b' },
        { name: 'KEEP', value: 'k' },
      ],
    });
  });

  it('applies a ConfigMap twice (strategic patch on a map-only kind) and removes dropped keys', async () => {
    const cm = (data: Record<string, string>) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data });
    await env.kubectl.ok(['apply', '-f', '-'], cm({ a: '1', b: '2' }));
    await env.kubectl.ok(['apply', '-f', '-'], cm({ a: '1', c: '3' }));
    const live = JSON.parse(await env.kubectl.ok(['get', 'cm', 'settings', '-o', 'json'])) as { data: unknown };
    expect(live.data).toEqual({ a: '1', c: '3' });
  });
});

describe('server-side apply', () => {
  const widgetCm = (value: string) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ssa' },
      data: { owned: value, other: 'x' },
    });

  it('creates, records managedFields, reports a conflict with another manager, and forces', async () => {
    await env.kubectl.ok(['apply', '--server-side', '-f', '-'], widgetCm('1'));
    const live = JSON.parse(await env.kubectl.ok(['get', 'cm', 'ssa', '-o', 'json', '--show-managed-fields'])) as {
      metadata: { managedFields: Array<{ manager: string; operation: string }> };
    };
    expect(live.metadata.managedFields).toContainEqual(
      expect.objectContaining({ manager: 'kubectl', operation: 'Apply' }),
    );

    await env.kubectl.ok(['patch', 'cm', 'ssa', '--type', 'merge', '-p', '{"data":{"owned":"patched"}}']);
    const conflict = await env.kubectl(['apply', '--server-side', '-f', '-'], widgetCm('2'));
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('conflict with "kubectl-patch"');
    expect(conflict.stderr).toContain('.data.owned');

    await env.kubectl.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], widgetCm('2'));
    const forced = JSON.parse(await env.kubectl.ok(['get', 'cm', 'ssa', '-o', 'json'])) as {
      data: Record<string, string>;
    };
    expect(forced.data.owned).toBe('2');
  });

  it('removes a field the applier dropped when no one else owns it', async () => {
    await env.kubectl.ok(
      ['apply', '--server-side', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'drop' }, data: { a: '1', b: '2' } }),
    );
    await env.kubectl.ok(
      ['apply', '--server-side', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'drop' }, data: { a: '1' } }),
    );
    const live = JSON.parse(await env.kubectl.ok(['get', 'cm', 'drop', '-o', 'json'])) as { data: unknown };
    expect(live.data).toEqual({ a: '1' });
  });

  it('upgrades a client-side applied object to server-side apply (managedFields replaced by a JSON patch)', async () => {
    const cm = (data: Record<string, string>) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'upgrade' }, data });
    await env.kubectl.ok(['apply', '-f', '-'], cm({ a: '1', b: '2' }));
    await env.kubectl.ok(['apply', '--server-side', '-f', '-'], cm({ a: '1', b: '2' }));
    // After the upgrade the server-side applier owns what client-side apply owned, so dropping b removes it.
    await env.kubectl.ok(['apply', '--server-side', '-f', '-'], cm({ a: '1' }));
    const live = JSON.parse(await env.kubectl.ok(['get', 'cm', 'upgrade', '-o', 'json', '--show-managed-fields'])) as {
      data: unknown;
      metadata: { managedFields: Array<{ manager: string }> };
    };
    expect(live.data).toEqual({ a: '1' });
    expect(live.metadata.managedFields.map((m) => m.manager)).not.toContain('kubectl-client-side-apply');
  });

  it('does nothing on dry-run=server', async () => {
    const r = await env.kubectl.ok(
      ['apply', '--dry-run=server', '-o', 'json', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' }, data: { a: '1' } }),
    );
    expect(JSON.parse(r).data).toEqual({ a: '1' });
    expect((await env.kubectl(['get', 'cm', 'dry'])).stderr).toContain('not found');
  });
});
