import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeKubeProtobuf, encodeKubeProtobuf, PROTOBUF_MEDIA_TYPE } from '../../src/apiserver/protobuf/index.js';
import { SERVED_GROUP_TYPES } from '../../src/apiserver/registry/builtin-groups.js';
import { apiVersionOf, type JsonObject, type ResourceType } from '../../src/apiserver/registry/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { CSR_REQUEST_B64 } from '../fixtures/csr-request.js';

/**
 * The groups and kinds kube-apiserver 1.34 serves by default beyond the workload core, over HTTP:
 * stored in JSON and protobuf, autoscaling/v1 beside v2, the bootstrap objects, and the resources and
 * subresources that are no plain storage (bindings, eviction, log, exec, componentstatuses, reviews).
 */

const SPECS: Record<string, JsonObject> = {
  HorizontalPodAutoscaler: {
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      maxReplicas: 3,
      targetCPUUtilizationPercentage: 50,
    },
  },
  CertificateSigningRequest: {
    spec: {
      request: CSR_REQUEST_B64,
      signerName: 'example.com/signer',
      usages: ['client auth'],
    },
  },
  CSIDriver: { spec: { attachRequired: true } },
  CSINode: { spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n1' }] } },
  CSIStorageCapacity: { storageClassName: 'standard' },
  VolumeAttachment: { spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } } },
  VolumeAttributesClass: { driverName: 'csi.example.com', parameters: { iops: '1000' } },
  ServiceCIDR: { spec: { cidrs: ['10.200.0.0/16'] } },
  IPAddress: { spec: { parentRef: { resource: 'services', namespace: 'default', name: 'elsewhere' } } },
  DeviceClass: { spec: {} },
  ResourceClaim: {
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
  },
  ResourceClaimTemplate: { spec: { spec: {} } },
  ResourceSlice: {
    spec: { driver: 'gpu.example.com', pool: { name: 'p', generation: 1, resourceSliceCount: 1 }, nodeName: 'n1' },
  },
  FlowSchema: { spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 } },
  PriorityLevelConfiguration: {
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } },
  },
  RuntimeClass: { handler: 'runc' },
  APIService: { spec: { group: 'example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 } },
};

const NAMES: Record<string, [string, string]> = {
  IPAddress: ['10.200.0.5', '10.200.0.6'],
  APIService: ['v1.example.com', 'v2.example.com'],
};

const stored = SERVED_GROUP_TYPES.filter((t) => !t.verbs);

function collection(t: ResourceType, ns = 'default'): string {
  const base = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  return `${base}${t.namespaced ? `/namespaces/${ns}` : ''}/${t.plural}`;
}

describe('every group and kind kube-apiserver 1.34 serves by default', () => {
  let s: TestServer;
  let kubectl: Kubectl;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> =>
    fetch(`${s.server.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body) }),
    });
  const json = async (r: Response): Promise<JsonObject> => (await r.json()) as JsonObject;

  beforeAll(async () => {
    s = await startTestServer();
    kubectl = kubectlFor(s.kubeconfig, `${s.dir}/kubectl-cache`);
  });
  afterAll(async () => {
    await s.stop();
  });

  it.each(stored.map((t) => [`${t.kind}.${t.group || 'core'}/${t.version}`, t] as const))(
    '%s is stored from JSON and protobuf bodies and read back in both',
    async (_name, t) => {
      const [first, second] = NAMES[t.kind] ?? [`${t.singular}-json`, `${t.singular}-pb`];
      const base = { apiVersion: apiVersionOf(t), kind: t.kind, ...SPECS[t.kind] };
      const created = await call('POST', collection(t), { ...base, metadata: { name: first } });
      expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
      const asPb = await call('GET', `${collection(t)}/${first}`, undefined, { Accept: PROTOBUF_MEDIA_TYPE });
      expect(asPb.headers.get('content-type')).toBe(PROTOBUF_MEDIA_TYPE);
      const decoded = decodeKubeProtobuf(Buffer.from(await asPb.arrayBuffer()));
      expect(decoded.kind).toBe(t.kind);
      expect((decoded.object.metadata as JsonObject).name).toBe(first);

      // An APIService is named `<version>.<group>` (ValidateAPIService), so the second one is v2's.
      const apiService = { group: 'example.com', version: 'v2', groupPriorityMinimum: 100, versionPriority: 10 };
      const secondSpec: JsonObject = t.kind === 'APIService' ? { spec: apiService } : {};
      const pbBody = encodeKubeProtobuf({ ...base, ...secondSpec, metadata: { name: second } });
      const createdPb = await call('POST', collection(t), pbBody, { 'Content-Type': PROTOBUF_MEDIA_TYPE });
      expect(createdPb.status, await createdPb.clone().text()).toBe(201);
      const back = await json(await call('GET', `${collection(t)}/${second}`));
      const sent: JsonObject = { ...SPECS[t.kind], ...secondSpec };
      for (const [k, v] of Object.entries(sent)) expect(back[k], k).toMatchObject(v as JsonObject);
      const list = await json(await call('GET', collection(t)));
      expect(list.kind).toBe(`${t.kind}List`);
    },
  );

  it('discovery lists the new groups, and kubectl api-resources shows them with their short names', async () => {
    const groups = (await json(await call('GET', '/apis'))).groups as Array<{
      name: string;
      versions: Array<{ version: string }>;
    }>;
    const names = groups.map((g) => g.name);
    for (const g of [
      'certificates.k8s.io',
      'flowcontrol.apiserver.k8s.io',
      'node.k8s.io',
      'resource.k8s.io',
      'apiregistration.k8s.io',
      'authorization.k8s.io',
      'authentication.k8s.io',
    ]) {
      expect(names).toContain(g);
    }
    expect(groups.find((g) => g.name === 'autoscaling')?.versions.map((v) => v.version)).toEqual(['v2', 'v1']);
    const r = await kubectl(['api-resources', '--no-headers', '-o', 'wide']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^certificatesigningrequests\s+csr\s+certificates\.k8s\.io\/v1\s+false\s+CertificateSigningRequest/m,
    );
    expect(r.stdout).toMatch(/^componentstatuses\s+cs\s+v1\s+false\s+ComponentStatus\s+get,list/m);
    expect(r.stdout).toMatch(
      /^namespaces\s+ns\s+v1\s+false\s+Namespace\s+create,delete,get,list,patch,update,watch\s/m,
    );
  });

  it('autoscaling/v1 and v2 serve one HorizontalPodAutoscaler, the CPU target converted both ways', async () => {
    const v1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
    const v2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
    const spec = {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
      minReplicas: 1,
      maxReplicas: 4,
      targetCPUUtilizationPercentage: 70,
    };
    expect(
      (
        await call('POST', v1, {
          apiVersion: 'autoscaling/v1',
          kind: 'HorizontalPodAutoscaler',
          metadata: { name: 'conv' },
          spec,
        })
      ).status,
    ).toBe(201);
    const noMin = { ...spec, minReplicas: undefined };
    const defaulted = await json(
      await call('POST', v1, {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'dflt' },
        spec: noMin,
      }),
    );
    expect((defaulted.spec as JsonObject).minReplicas).toBe(1);
    const asV2 = await json(await call('GET', `${v2}/conv`));
    expect((asV2.spec as JsonObject).metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    ]);
    const memory = {
      type: 'Resource',
      resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } },
    };
    const v2Spec = { ...(asV2.spec as JsonObject), metrics: [memory] };
    expect((await call('PUT', `${v2}/conv`, { ...asV2, spec: v2Spec })).status).toBe(200);
    const asV1 = await json(await call('GET', `${v1}/conv`));
    expect((asV1.spec as JsonObject).targetCPUUtilizationPercentage).toBeUndefined();
    const annotations = (asV1.metadata as JsonObject).annotations as Record<string, string>;
    expect(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/metrics'] ?? '[]')).toEqual([memory]);
    // A v1 read-modify-write keeps the metric v1 has no field for.
    expect(
      (await call('PUT', `${v1}/conv`, { ...asV1, spec: { ...(asV1.spec as JsonObject), maxReplicas: 6 } })).status,
    ).toBe(200);
    const again = await json(await call('GET', `${v2}/conv`));
    expect(again.spec).toMatchObject({ maxReplicas: 6, metrics: [memory] });
  });

  it('has what kube-apiserver makes for itself: flow control, APIServices, ServiceCIDR, authn CM', async () => {
    const fc = '/apis/flowcontrol.apiserver.k8s.io/v1';
    for (const name of ['exempt', 'catch-all', 'system-leader-election', 'kube-controller-manager']) {
      expect((await call('GET', `${fc}/flowschemas/${name}`)).status, name).toBe(200);
    }
    for (const name of ['exempt', 'catch-all', 'leader-election', 'workload-low']) {
      expect((await call('GET', `${fc}/prioritylevelconfigurations/${name}`)).status, name).toBe(200);
    }
    const apps = await json(await call('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.apps'));
    expect(apps.spec).toMatchObject({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    expect(((apps.status as JsonObject).conditions as JsonObject[])[0]).toMatchObject({
      type: 'Available',
      status: 'True',
      reason: 'Local',
    });
    const cidr = await json(await call('GET', '/apis/networking.k8s.io/v1/servicecidrs/kubernetes'));
    expect((cidr.spec as JsonObject).cidrs).toEqual(['10.96.0.0/12']);
    expect(
      (await call('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication')).status,
    ).toBe(200);
  });

  it('records each allocated ClusterIP as an IPAddress of its Service, dropped with the Service', async () => {
    const kube = await json(await call('GET', '/apis/networking.k8s.io/v1/ipaddresses/10.96.0.1'));
    expect((kube.spec as JsonObject).parentRef).toEqual({
      group: '',
      resource: 'services',
      namespace: 'default',
      name: 'kubernetes',
    });
    const svc = await json(
      await call('POST', '/api/v1/namespaces/default/services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'ip-owner' },
        spec: { ports: [{ port: 80 }] },
      }),
    );
    const ip = String((svc.spec as JsonObject).clusterIP);
    const record = await waitFor(
      async () => {
        const r = await call('GET', `/apis/networking.k8s.io/v1/ipaddresses/${ip}`);
        return r.status === 200 ? json(r) : undefined;
      },
      { what: `IPAddress ${ip}` },
    );
    expect((record.metadata as JsonObject).labels).toMatchObject({
      'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io',
    });
    expect((await call('DELETE', '/api/v1/namespaces/default/services/ip-owner')).status).toBe(200);
    await waitFor(async () => (await call('GET', `/apis/networking.k8s.io/v1/ipaddresses/${ip}`)).status === 404, {
      what: `IPAddress ${ip} gone`,
    });
  });

  it('binds a pod once (pods/binding, bindings), evicts it, answers its log and exec as a simulated pod', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    const pod = (name: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect((await call('POST', pods, pod('bind-me'))).status).toBe(201);
    const bound = await call('POST', `${pods}/bind-me/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'bind-me' },
      target: { kind: 'Node', name: 'node-a' },
    });
    expect(bound.status).toBe(201);
    expect(await json(bound)).toMatchObject({ kind: 'Status', status: 'Success' });
    const got = await json(await call('GET', `${pods}/bind-me`));
    expect((got.spec as JsonObject).nodeName).toBe('node-a');
    expect((got.status as JsonObject).conditions).toEqual([
      expect.objectContaining({ type: 'PodScheduled', status: 'True' }),
    ]);
    const twice = await call('POST', '/api/v1/namespaces/default/bindings', {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'bind-me' },
      target: { kind: 'Node', name: 'node-b' },
    });
    expect(twice.status).toBe(409);
    expect((await json(twice)).message).toContain('is already assigned to node "node-a"');

    const log = await call('GET', `${pods}/bind-me/log`);
    expect(log.status).toBe(200);
    expect(await log.text()).toBe('');
    const exec = await call('POST', `${pods}/bind-me/exec?command=ls&container=c`);
    expect(exec.status).toBe(400);
    expect(await json(exec)).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: expect.stringContaining('no container runs here'),
    });
    expect((await call('GET', `${pods}/missing/log`)).status).toBe(404);

    const evicted = await call('POST', `${pods}/bind-me/eviction`, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'bind-me' },
      deleteOptions: { gracePeriodSeconds: 0 },
    });
    expect(evicted.status).toBe(201);
    await waitFor(async () => (await call('GET', `${pods}/bind-me`)).status === 404, { what: 'the evicted pod gone' });
  });

  it('answers componentstatuses, the reviews as AlwaysAllow, and refuses verbs a resource lacks', async () => {
    const cs = await json(await call('GET', '/api/v1/componentstatuses'));
    expect(cs.items).toEqual([
      expect.objectContaining({
        metadata: { name: 'etcd-0' },
        conditions: [expect.objectContaining({ type: 'Healthy', status: 'True' })],
      }),
    ]);
    expect((await call('POST', '/api/v1/componentstatuses', { metadata: { name: 'x' } })).status).toBe(405);
    expect((await call('DELETE', '/api/v1/namespaces')).status).toBe(405);
    const review = await call('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'create', resource: 'pods' } },
    });
    expect(review.status).toBe(201);
    expect((await json(review)).status).toEqual({ allowed: true });
    expect((await call('GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).status).toBe(405);
    const pbReview = encodeKubeProtobuf({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'someone', resourceAttributes: { verb: 'get', resource: 'secrets' } },
    });
    const pbAnswer = await call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', pbReview, {
      'Content-Type': PROTOBUF_MEDIA_TYPE,
      Accept: PROTOBUF_MEDIA_TYPE,
    });
    expect(pbAnswer.status).toBe(201);
    const decodedReview = decodeKubeProtobuf(Buffer.from(await pbAnswer.arrayBuffer()));
    expect(decodedReview.kind).toBe('SubjectAccessReview');
    expect(decodedReview.object.status).toMatchObject({ allowed: true });
    const canI = await kubectl(['auth', 'can-i', 'delete', 'nodes']);
    expect(canI.stdout.trim()).toBe('yes');
  });

  it('approves a CertificateSigningRequest through its approval subresource, leaving the rest as stored', async () => {
    const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
    const body = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'approve-me' },
      ...SPECS.CertificateSigningRequest,
    };
    expect((await call('POST', csrs, body)).status).toBe(201);
    const csr = await json(await call('GET', `${csrs}/approve-me`));
    const approved = {
      type: 'Approved',
      status: 'True',
      reason: 'Test',
      message: 'ok',
      lastUpdateTime: '2026-01-01T00:00:00Z',
    };
    const r = await call('PUT', `${csrs}/approve-me/approval`, {
      ...csr,
      spec: { ...(csr.spec as JsonObject), signerName: 'changed/ignored' },
      status: { conditions: [approved] },
    });
    expect(r.status, await r.clone().text()).toBe(200);
    const after = await json(await call('GET', `${csrs}/approve-me`));
    expect((after.status as JsonObject).conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'True' }),
    ]);
    expect((after.spec as JsonObject).signerName).toBe('example.com/signer');
  });
});
