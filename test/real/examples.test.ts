import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { refusedRequests } from './audit.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { getJson, type Json } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';

// The other repos-example operators on the real kube-apiserver, with FlowOps installed by
// `kubectl apply -k config/default` and running as its ServiceAccount: a Helm-rendered
// Deployment and a Service (real validation and defaulting of built-in kinds), a bash script and
// an HTTP call with a header from a Secret, a kustomize base and a python script.

const NS = 'flowops-system';
const SA = `system:serviceaccount:${NS}:flowops`;
const EXAMPLES = join(ROOT, 'repos-example');
const controlPlane = realControlPlane();

describeReal('repos-example operators on the real server, FlowOps as its ServiceAccount', () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  let hook: Server | undefined;
  let hookUrl = '';
  const received: Array<{ auth: string | undefined; body: Json }> = [];
  beforeAll(async () => {
    cp = controlPlane();
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(body || '{}') as Json });
        // /rejects answers 400, which the Flow's failOn makes a terminal failure.
        if (req.url === '/rejects') {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end('{"error":"bad alert"}');
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `T-${received.length}` }));
      });
    });
    await new Promise<void>((r) => hook!.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`;

    await cp.kubectl.ok(['apply', '-k', join(ROOT, 'config/default')]);
    for (const dir of ['webapp-operator', 'webhook-notifier', 'config-bundle'])
      await cp.kubectl.ok(['apply', '-f', join(EXAMPLES, dir, 'crd.yaml')]);
    await cp.kubectl.ok([
      'wait',
      '--for=condition=Established',
      'crd/webapps.example.com',
      'crd/alerts.example.com',
      'crd/configbundles.example.com',
      'crd/flows.flowops.io',
      '--timeout=60s',
    ]);
    const kubeconfig = await serviceAccountKubeconfig(cp, NS, 'flowops');
    flowops = await startFlowOps({
      kubeconfig,
      dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
      leaseNamespace: NS,
      leaseName: 'flowops-leader',
      commonArgs: ['--source-dir', EXAMPLES],
    });
    for (const dir of ['webapp-operator', 'webhook-notifier', 'config-bundle'])
      await cp.kubectl.ok(['apply', '-f', join(EXAMPLES, dir, 'flow.yaml')]);
  });
  afterAll(async () => {
    await flowops?.stop();
    hook?.close();
  });

  const get = (kind: string, name: string) => getJson(cp, ['get', kind, name, '-n', 'default']);
  const logs = () => flowops!.logs();

  it('webapp-operator: a Helm chart becomes a Deployment the real server accepts; `when` adds a Service fed by step outputs', async () => {
    await cp.kubectl.ok(['apply', '-f', join(EXAMPLES, 'samples/webapp.yaml')]);
    const deploy = await waitFor(() => get('deployment', 'shop'), {
      what: `Deployment shop\n${logs()}`,
      timeoutMs: 30_000,
    });
    expect(deploy.spec.replicas).toBe(2);
    expect(deploy.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(deploy.metadata.ownerReferences[0]).toMatchObject({ kind: 'WebApp', name: 'shop' });
    expect(deploy.metadata.annotations).toMatchObject({
      'flowops.io/flow': 'default/webapp-operator',
      'flowops.io/owner': 'WebApp/default/shop',
    });
    const svc = await waitFor(() => get('service', 'shop'), { what: `Service shop\n${logs()}`, timeoutMs: 30_000 });
    expect(svc.metadata.annotations['example.com/deployment-uid']).toBe(deploy.metadata.uid);
    // The real server allocated a ClusterIP from --service-cluster-ip-range.
    expect(svc.spec.clusterIP).toMatch(/^10\.(9[6-9]|1[01][0-9])\./);

    // No controller runs the Deployment: its status is set by hand; then the WebApp is Ready.
    const status = {
      observedGeneration: deploy.metadata.generation,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'test',
          lastUpdateTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      ],
    };
    await cp.kubectl.ok([
      'patch',
      'deployment',
      'shop',
      '-n',
      'default',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ]);
    const wait = await cp.kubectl(['wait', '--for=condition=Ready', 'webapp/shop', '-n', 'default', '--timeout=30s']);
    expect(wait.code, `${wait.stderr}\n${logs()}`).toBe(0);
  });

  it('webhook-notifier: a script classifies, an HTTP call carries a Secret header, outputs land in a ConfigMap', async () => {
    await cp.kubectl.ok([
      'create',
      'secret',
      'generic',
      'notifier-token',
      '-n',
      'default',
      '--from-literal=token=Bearer s3cr3t-value',
    ]);
    await cp.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Alert',
        metadata: { name: 'disk-full', namespace: 'default' },
        spec: { endpoint: hookUrl, severity: 'critical', summary: 'disk is full' },
      }),
    );
    const cm = await waitFor(() => get('configmap', 'disk-full-notification'), {
      what: `notification ConfigMap\n${logs()}`,
      timeoutMs: 30_000,
    });
    expect(cm.data).toEqual({ ticket: 'T-1', priority: 'P1' });
    expect(received[0]).toEqual({
      auth: 'Bearer s3cr3t-value',
      body: { alert: 'disk-full', priority: 'P1', summary: 'disk is full' },
    });
    const alert = await waitFor(
      async () => ((await get('alert', 'disk-full'))?.status?.ticket ? get('alert', 'disk-full') : undefined),
      { what: 'ticket in the Alert status' },
    );
    expect(alert.status).toMatchObject({ ticket: 'T-1', priority: 'P1' });
  });

  it('webhook-notifier errorHandling: a 400 in failOn runs onError once and stalls the Alert with a Warning Event', async () => {
    const rejects = hookUrl.replace(/\/alerts$/, '/rejects');
    await cp.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Alert',
        metadata: { name: 'bad-alert', namespace: 'default' },
        spec: { endpoint: rejects, severity: 'info' },
      }),
    );
    const failed = await waitFor(() => get('configmap', 'bad-alert-notification-failed'), {
      what: `onError ConfigMap\n${logs()}`,
      timeoutMs: 30_000,
    });
    expect(failed.data.step).toBe('notify');
    const conditions = await waitFor(
      async () => {
        const c = (await get('alert', 'bad-alert'))?.status?.conditions as
          | Array<{ type: string; status: string }>
          | undefined;
        return c?.some((x) => x.type === 'Stalled' && x.status === 'True') ? c : undefined;
      },
      { what: `Stalled=True on the Alert\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(conditions.find((c) => c.type === 'Ready')?.status).toBe('False');
    const events = (await getJson(cp, [
      'get',
      'events',
      '-n',
      'default',
      '--field-selector',
      'involvedObject.kind=Alert,involvedObject.name=bad-alert',
    ]))!.items as Json[];
    expect(events.some((e) => e.type === 'Warning')).toBe(true);
    // Terminal: posted once, not retried.
    expect(received.filter((r) => r.body.alert === 'bad-alert')).toHaveLength(1);
  });

  it('config-bundle: kustomize renders a base; a python script computes outputs for a ranged manifest; a removed key is dropped', async () => {
    await cp.kubectl.ok(['apply', '-f', join(EXAMPLES, 'samples/config-bundle.yaml')]);
    const settings = await waitFor(() => get('configmap', 'payments-settings'), {
      what: `settings ConfigMap\n${logs()}`,
      timeoutMs: 30_000,
    });
    expect(settings.data).toEqual({ RETRIES: '3', TIMEOUT: '30s' });
    expect(settings.metadata.annotations['example.com/checksum']).toMatch(/^[0-9a-f]{12}$/);
    const base = await waitFor(() => get('configmap', 'bundle-defaults'), { what: 'kustomize output' });
    expect(base.data).toEqual({ LOG_LEVEL: 'info', FEATURE_X: 'off' });
    await waitFor(async () => (await get('configbundle', 'payments'))?.status?.settings === 2, {
      what: `typed settings count in the status\n${logs()}`,
    });
    await cp.kubectl.ok([
      'patch',
      'configbundle',
      'payments',
      '-n',
      'default',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/spec/settings/TIMEOUT"}]',
    ]);
    await waitFor(
      async () => JSON.stringify((await get('configmap', 'payments-settings'))?.data) === '{"RETRIES":"3"}',
      { what: `TIMEOUT gone from the ConfigMap\n${logs()}`, timeoutMs: 30_000 },
    );
  });

  it('the real server refused FlowOps nothing (audit log: no 400/401/403/415/422)', () => {
    expect(refusedRequests(cp, SA)).toEqual([]);
  });
});
