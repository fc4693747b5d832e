// Per-kind validation and update rules (src/apiserver/validation/*), over HTTP, with the paths,
// reasons and texts kube-apiserver v1.34.4 answered to the same bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls } from '../helpers/api-call.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

const { call, causes } = apiCalls(() => ts);
const ns = '/api/v1/namespaces/default';
const RFC1123 =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const pod = (name: string, spec: object) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
const template = (spec: object = {}) => ({
  metadata: { labels: { app: 'a' } },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});

describe('Pod (ValidatePodCreate, ValidatePodUpdate)', () => {
  it('refuses bad container names, a missing image, duplicates, bad ports and enums, each named', async () => {
    const a = await call(
      'POST',
      `${ns}/pods`,
      pod('p1', {
        containers: [
          { name: 'Bad_Name', image: '' },
          {
            name: 'Bad_Name',
            ports: [{ containerPort: 0 }, { containerPort: 70000, hostPort: -1, protocol: 'XTP', name: 'Bad_N' }],
          },
        ],
        restartPolicy: 'Sometimes',
        dnsPolicy: 'x',
        activeDeadlineSeconds: 0,
      }),
    );
    expect(a.status).toBe(422);
    expect(causes(a)).toEqual([
      `spec.containers[0].name: Invalid value: "Bad_Name": ${RFC1123}`,
      'spec.containers[0].image: Required value',
      `spec.containers[1].name: Invalid value: "Bad_Name": ${RFC1123}`,
      'spec.containers[1].image: Required value',
      'spec.containers[1].ports[0].containerPort: Required value',
      'spec.containers[1].ports[1].name: Invalid value: "Bad_N": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[1].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[1].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
      'spec.containers[1].ports[1].protocol: Unsupported value: "XTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[1].name: Duplicate value: "Bad_Name"',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "x": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
    ]);
  });

  it('refuses a Pod without containers', async () => {
    const a = await call('POST', `${ns}/pods`, pod('p2', { containers: [] }));
    expect(a.body.message).toBe('Pod "p2" is invalid: spec.containers: Required value');
  });

  it('lets an update change the image, not the restartPolicy; zero values spelled out change nothing', async () => {
    const created = await call('POST', `${ns}/pods`, pod('p3', { containers: [{ name: 'c', image: 'i' }] }));
    expect(created.status).toBe(201);
    const spec = created.body.spec as { containers: Array<Record<string, unknown>>; restartPolicy: string };
    const image = await call('PUT', `${ns}/pods/p3`, {
      ...created.body,
      spec: { ...spec, containers: [{ ...spec.containers[0], image: 'j', stdin: false, env: [] }] },
    });
    expect(image.status).toBe(200);
    const renamed = { ...image.body, spec: { ...(image.body.spec as object), serviceAccount: 'other' } };
    const sa = await call('PUT', `${ns}/pods/p3`, renamed);
    expect(sa.status, 'the deprecated serviceAccount follows serviceAccountName').toBe(200);
    const restart = await call('PUT', `${ns}/pods/p3`, {
      ...sa.body,
      spec: { ...(sa.body.spec as object), restartPolicy: 'Never' },
    });
    expect(restart.status).toBe(422);
    expect(restart.body.details?.causes?.map((c) => [c.field, c.reason])).toEqual([['spec', 'FieldValueForbidden']]);
    expect(restart.body.message).toContain('pod updates may not change fields other than `spec.containers[*].image`');
  });
});

describe('workloads (apps and batch validation)', () => {
  const deploy = (name: string, labels: object, spec: object = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: labels }, template: { ...template(spec), metadata: { labels } } },
  });
  const deployments = '/apis/apps/v1/namespaces/default/deployments';

  it('refuses a Deployment template whose restartPolicy is not Always', async () => {
    const a = await call('POST', deployments, deploy('d1', { app: 'a' }, { restartPolicy: 'Never' }));
    expect(causes(a)).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
  });

  it("refuses a change of a Deployment's selector", async () => {
    const created = await call('POST', deployments, deploy('d2', { app: 'a' }));
    expect(created.status).toBe(201);
    const changed = await call('PUT', `${deployments}/d2`, {
      ...deploy('d2', { app: 'b' }),
      metadata: created.body.metadata,
    });
    expect(changed.status).toBe(422);
    expect(changed.body.details?.causes?.map((c) => [c.field, c.reason])).toEqual([
      ['spec.selector', 'FieldValueInvalid'],
    ]);
  });

  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  const job = (name: string, spec: object) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } },
  });

  it('refuses a Job whose pods would restart Always', async () => {
    const a = await call('POST', jobs, job('j1', { restartPolicy: 'Always' }));
    expect(a.body.message).toBe(
      'Job.batch "j1" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    );
  });

  it("refuses a Job name that cannot be its template's job-name label value, beside the name's own error", async () => {
    const a = await call('POST', jobs, job('fz-1-', { restartPolicy: 'Never' }));
    expect(a.body.details?.causes?.map((c) => [c.field, c.reason])).toEqual([
      ['metadata.name', 'FieldValueInvalid'],
      ['spec.template.labels', 'FieldValueInvalid'],
    ]);
  });

  it("refuses a change of a Job's template", async () => {
    const created = await call('POST', jobs, job('j2', { restartPolicy: 'Never' }));
    expect(created.status).toBe(201);
    const spec = created.body.spec as { template: { spec: Record<string, unknown> } };
    const body = {
      ...created.body,
      spec: { ...spec, template: { ...spec.template, spec: { ...spec.template.spec, hostname: 'h' } } },
    };
    const changed = await call('PUT', `${jobs}/j2`, body);
    expect(changed.body.details?.causes?.map((c) => [c.field, c.reason])).toEqual([
      ['spec.template', 'FieldValueInvalid'],
    ]);
  });

  it('refuses Deployment status counts above what contains them', async () => {
    const created = await call('POST', deployments, deploy('d3', { app: 'a' }));
    const status = await call('PUT', `${deployments}/d3/status`, { ...created.body, status: { availableReplicas: 2 } });
    expect(status.status).toBe(422);
    expect(status.body.details?.causes?.map((c) => c.field)).toEqual([
      'status.availableReplicas',
      'status.availableReplicas',
    ]);
  });
});

describe('Service, ConfigMap, Lease', () => {
  it('refuses two unnamed ports, a bad type, protocol and traffic policies', async () => {
    const a = await call('POST', `${ns}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's1' },
      spec: {
        type: 'Bogus',
        ports: [{ port: 80, protocol: 'XTP' }, { port: 0 }],
        sessionAffinity: 'x',
        internalTrafficPolicy: 'x',
        externalTrafficPolicy: 'x',
        allocateLoadBalancerNodePorts: true,
      },
    });
    expect(causes(a)).toEqual([
      'spec.ports[0].name: Required value',
      'spec.ports[0].protocol: Unsupported value: "XTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[1].name: Required value',
      'spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[1].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.sessionAffinity: Unsupported value: "x": supported values: "ClientIP", "None"',
      'spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.externalTrafficPolicy: Invalid value: "x": may only be set for externally-accessible services',
      'spec.internalTrafficPolicy: Unsupported value: "x": supported values: "Cluster", "Local"',
    ]);
  });

  it('lets a LoadBalancer become a ClusterIP Service with its type-dependent fields left as they were', async () => {
    const created = await call('POST', `${ns}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'lb' },
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
    });
    expect(created.status).toBe(201);
    const spec = created.body.spec as Record<string, unknown>;
    const changed = await call('PUT', `${ns}/services/lb`, { ...created.body, spec: { ...spec, type: 'ClusterIP' } });
    expect(changed.status).toBe(200);
    const fresh = await call('POST', `${ns}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'cip' },
      spec: { ports: [{ port: 80 }], externalTrafficPolicy: 'Cluster' },
    });
    expect(causes(fresh)).toEqual([
      'spec.externalTrafficPolicy: Invalid value: "Cluster": may only be set for externally-accessible services',
    ]);
  });

  it('refuses a ConfigMap key in both data and binaryData', async () => {
    const a = await call('POST', `${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c1' },
      data: { a: 'b' },
      binaryData: { a: 'Yg==' },
    });
    expect(a.body.message).toBe(
      'ConfigMap "c1" is invalid: data[a]: Invalid value: "a": duplicate of key present in binaryData',
    );
  });

  it('refuses a Lease of no duration, and a PUT of a missing Lease creates it', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const bad = await call('POST', leases, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l1' },
      spec: { leaseDurationSeconds: 0 },
    });
    expect(causes(bad)).toEqual(['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']);
    const put = await call('PUT', `${leases}/l2`, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l2' },
      spec: {},
    });
    expect(put.status).toBe(201);
  });
});

describe('ResourceSlice (ValidateResourceSlice, ValidateResourceSliceUpdate)', () => {
  const slices = '/apis/resource.k8s.io/v1/resourceslices';
  const slice = (name: string, spec: object) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name },
    spec: { driver: 'gpu.example.com', pool: { name: 'p', generation: 0, resourceSliceCount: 1 }, ...spec },
  });
  it('refuses a bad driver, an empty pool and two node fields at once', async () => {
    const a = await call('POST', slices, {
      ...slice('s1', { nodeName: 'node-1', allNodes: true }),
      spec: { driver: 'Bad_Driver', pool: { name: 'p', resourceSliceCount: 0 }, nodeName: 'node-1', allNodes: true },
    });
    expect(a.status).toBe(422);
    expect((a.body.details?.causes ?? []).map((c) => `${c.field} ${c.reason}`)).toEqual([
      'spec.driver FieldValueInvalid',
      'spec.pool.resourceSliceCount FieldValueInvalid',
      'spec FieldValueInvalid',
    ]);
    expect(causes(a).at(-1)).toBe(
      'spec: Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, `nodeSelector`, `allNodes`, ' +
        '`perDeviceNodeSelection` is required, but multiple fields are set',
    );
  });
  it('keeps its node, driver and pool name on update', async () => {
    const made = await call('POST', slices, slice('s2', { nodeName: 'node-1' }));
    expect(made.status).toBe(201);
    const moved = { ...made.body, spec: { ...(made.body.spec as object), nodeName: 'node-2' } };
    const a = await call('PUT', `${slices}/s2`, moved);
    expect(causes(a)).toEqual(['spec.nodeName: Invalid value: "node-2": field is immutable']);
  });
});

describe('PersistentVolume (ValidatePersistentVolumeSpec)', () => {
  it('refuses a node affinity without required terms and an attributes class without a CSI source', async () => {
    const a = await call('POST', '/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv1' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: '/tmp' },
        nodeAffinity: {},
        volumeAttributesClassName: 'gold',
      },
    });
    expect(a.status).toBe(422);
    expect(causes(a)).toEqual([
      'spec.nodeAffinity.required: Required value: must specify required node constraints',
      'spec.csi: Required value: has to be specified when using volumeAttributesClassName',
    ]);
  });
});
