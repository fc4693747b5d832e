import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/apiserver.js';

// The scale subresource of the built-in workloads, as the real kubectl uses it.

const env = useTestServer();

describe('the scale subresource', () => {
  it('kubectl scale moves spec.replicas of a Deployment, and get --subresource=scale shows the Scale', async () => {
    await env.kubectl.ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    expect(await env.kubectl.ok(['scale', 'deployment', 'web', '--replicas=5'])).toBe('deployment.apps/web scaled\n');
    expect(await env.kubectl.ok(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])).toBe('5');
    const scale = JSON.parse(await env.kubectl.ok(['get', 'deployment', 'web', '--subresource=scale', '-o', 'json']));
    expect(scale).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 5 },
      status: { replicas: 0, selector: 'app=web' },
    });
  });

  it('scales a StatefulSet, with --current-replicas as a precondition', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: 'default' },
        spec: {
          replicas: 3,
          serviceName: 'db',
          selector: { matchLabels: { app: 'db' } },
          template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres' }] } },
        },
      }),
    );
    expect((await env.kubectl(['scale', 'statefulset', 'db', '--current-replicas=2', '--replicas=1'])).code).not.toBe(
      0,
    );
    expect(await env.kubectl.ok(['scale', 'statefulset', 'db', '--current-replicas=3', '--replicas=1'])).toBe(
      'statefulset.apps/db scaled\n',
    );
    expect(await env.kubectl.ok(['get', 'statefulset', 'db', '-o', 'jsonpath={.spec.replicas}'])).toBe('1');
  });

  it('refuses a negative count with 422, and is listed in discovery', async () => {
    const r = await fetch(`${env.ts.server.url}/apis/apps/v1/namespaces/default/deployments/web/scale`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: '{"spec":{"replicas":-1}}',
    });
    expect(r.status).toBe(422);
    const list = (await (await fetch(`${env.ts.server.url}/apis/apps/v1`)).json()) as {
      resources: Array<{ name: string; kind: string; group?: string; version?: string }>;
    };
    expect(list.resources).toContainEqual(
      expect.objectContaining({ name: 'deployments/scale', kind: 'Scale', group: 'autoscaling', version: 'v1' }),
    );
    expect((await fetch(`${env.ts.server.url}/api/v1/namespaces/default/configmaps/x/scale`)).status).toBe(404);
  });
});

describe('the scale subresource of a CRD with subresources.scale', () => {
  it('reads and writes the declared paths', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: pools.example.com }
spec:
  group: example.com
  scope: Namespaced
  names: { plural: pools, singular: pool, kind: Pool }
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
        scale: { specReplicasPath: .spec.size, statusReplicasPath: .status.ready, labelSelectorPath: .status.selector }
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
`,
    );
    const { waitFor } = await import('../helpers/wait.js');
    await waitFor(async () => (await env.kubectl(['get', 'pools'])).code === 0, { what: 'the Pool kind served' });
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Pool',
        metadata: { name: 'p', namespace: 'default' },
        spec: { size: 2 },
      }),
    );
    await env.kubectl.ok([
      'patch',
      'pool',
      'p',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"ready":1,"selector":"app=p"}}',
    ]);
    expect(await env.kubectl.ok(['scale', 'pool', 'p', '--replicas=4'])).toBe('pool.example.com/p scaled\n');
    expect(await env.kubectl.ok(['get', 'pool', 'p', '-o', 'jsonpath={.spec.size}'])).toBe('4');
    const scale = JSON.parse(await env.kubectl.ok(['get', 'pool', 'p', '--subresource=scale', '-o', 'json']));
    expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 4 }, status: { replicas: 1, selector: 'app=p' } });
  });
});
