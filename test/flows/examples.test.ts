import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

const EXAMPLES = join(ROOT, 'repos-example');
const example = (f: string): string => readFileSync(join(EXAMPLES, f), 'utf8');

let env: FlowOpsEnv;
let hook: Server;
let hookUrl: string;
const received: Array<{ auth: string | undefined; body: any }> = [];

beforeAll(async () => {
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(body || '{}') });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `T-${received.length}` }));
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`;
  env = await startFlowOps({ sourceDir: EXAMPLES });
  for (const dir of ['webapp-operator', 'webhook-notifier', 'config-bundle']) {
    await env.kubectl.ok(['apply', '-f', '-'], example(`${dir}/crd.yaml`));
    await env.kubectl.ok(['apply', '-f', '-'], example(`${dir}/flow.yaml`));
  }
});
afterAll(async () => {
  await env?.stop();
  hook?.close();
});

const get = async (kind: string, name: string) => {
  const r = await env.kubectl(['get', kind, name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as any) : undefined;
};

describe('repos-example operators', () => {
  it('webapp-operator: a Helm chart becomes a Deployment; `when` adds a Service fed by step outputs', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], example('samples/webapp.yaml'));
    const deploy = await waitFor(() => get('deployment', 'shop'), { what: 'Deployment shop', timeoutMs: 30_000 });
    expect(deploy.spec.replicas).toBe(2);
    expect(deploy.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(deploy.metadata.ownerReferences[0]).toMatchObject({ kind: 'WebApp', name: 'shop' });
    // A Helm-rendered child carries the same provenance as any other.
    expect(deploy.metadata.annotations).toMatchObject({
      'flowops.io/flow': 'default/webapp-operator',
      'flowops.io/owner': 'WebApp/default/shop',
    });
    const svc = await waitFor(() => get('service', 'shop'), { what: 'Service shop' });
    expect(svc.metadata.annotations['example.com/deployment-uid']).toBe(deploy.metadata.uid);
    expect(svc.metadata.annotations['example.com/replicas']).toBe('2');
  });

  it('webapp-operator: `when` false skips the Service step', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      example('samples/webapp.yaml').replace('name: shop', 'name: internal').replace('expose: true', 'expose: false'),
    );
    const deploy = await waitFor(() => get('deployment', 'internal'), {
      what: 'Deployment internal',
      timeoutMs: 30_000,
    });
    // Nothing runs Pods on the embedded server: the Deployment's status is written by hand.
    const status = {
      observedGeneration: deploy.metadata.generation,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
    };
    await env.kubectl.ok([
      'patch',
      'deployment',
      'internal',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ]);
    await waitFor(async () => (await get('webapp', 'internal'))?.status?.conditions?.[0]?.status === 'True', {
      what: 'Ready',
    });
    expect(await get('service', 'internal')).toBeUndefined();
  });

  it('webhook-notifier: a script classifies, an HTTP call carries a Secret header, outputs land in a ConfigMap', async () => {
    await env.kubectl.ok(['create', 'secret', 'generic', 'notifier-token', '--from-literal=token=Bearer s3cr3t-value']);
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Alert',
        metadata: { name: 'disk-full', namespace: 'default' },
        spec: { endpoint: hookUrl, severity: 'critical', summary: 'disk is full' },
      }),
    );
    const cm = await waitFor(() => get('configmap', 'disk-full-notification'), { what: 'notification ConfigMap' });
    expect(cm.data).toEqual({ ticket: 'T-1', priority: 'P1' });
    expect(received[0]).toEqual({
      auth: 'Bearer s3cr3t-value',
      body: { alert: 'disk-full', priority: 'P1', summary: 'disk is full' },
    });
    // alert.example.com: FlowOps serves an Alert kind of its own (flowops.io), which a bare `alert` would name.
    const alert = await waitFor(
      async () =>
        (await get('alert.example.com', 'disk-full'))?.status?.ticket
          ? get('alert.example.com', 'disk-full')
          : undefined,
      { what: 'ticket in the Alert status' },
    );
    expect(alert.status).toMatchObject({ ticket: 'T-1', priority: 'P1' });
    expect(JSON.stringify(alert.status)).not.toContain('s3cr3t');
  });

  it('config-bundle: kustomize renders a base; a python script computes outputs for a ranged manifest', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], example('samples/config-bundle.yaml'));
    const settings = await waitFor(() => get('configmap', 'payments-settings'), {
      what: 'settings ConfigMap',
      timeoutMs: 30_000,
    });
    expect(settings.data).toEqual({ RETRIES: '3', TIMEOUT: '30s' });
    expect(settings.metadata.annotations['example.com/checksum']).toMatch(/^[0-9a-f]{12}$/);
    expect(settings.metadata.annotations['example.com/environment']).toBe('prod');
    const base = await waitFor(() => get('configmap', 'bundle-defaults'), { what: 'kustomize output' });
    expect(base.data).toEqual({ LOG_LEVEL: 'info', FEATURE_X: 'off' });
    expect(base.metadata.labels['flowops.io/flow']).toBe('config-bundle');
    const bundle = await waitFor(
      async () =>
        (await get('configbundle', 'payments'))?.status?.settings === 2 ? get('configbundle', 'payments') : undefined,
      { what: 'typed settings count in the status' },
    );
    expect(bundle.status.checksum).toBe(settings.metadata.annotations['example.com/checksum']);
    // A key removed from the spec leaves the ConfigMap; the bundle stays Ready (ConfigMaps have no readiness of their own).
    await env.kubectl.ok([
      'patch',
      'configbundle',
      'payments',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/spec/settings/TIMEOUT"}]',
    ]);
    await waitFor(
      async () => JSON.stringify((await get('configmap', 'payments-settings'))?.data) === '{"RETRIES":"3"}',
      { what: 'TIMEOUT gone from the ConfigMap' },
    );
    await waitFor(async () => (await get('configbundle', 'payments'))?.status?.settings === 1, {
      what: 'settings count 1',
    });
  });

  it('every example Flow passes flowops validate', async () => {
    const { validateFlowDocuments } = await import('../../src/api/validate.js');
    for (const dir of ['database-operator', 'webapp-operator', 'webhook-notifier', 'config-bundle']) {
      expect(validateFlowDocuments(example(`${dir}/flow.yaml`), `${dir}/flow.yaml`)).toEqual([]);
    }
  });
});
