// StatefulSets, a Pod's status IPs, ResourceClaims and VolumeAttachments as kube-apiserver v1.34
// validates them; test/fidelity/scenarios/{statefulsets,pointers}.ts compare the same with the real
// server in test:real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls } from '../helpers/api-call.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

interface Body {
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const { call, causes, createThenPut } = apiCalls<Body>(() => ts);

const SETS = '/apis/apps/v1/namespaces/default/statefulsets';
const set = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    ...spec,
  },
});

describe('StatefulSet', () => {
  it('refuses a name with dots, as a DNS label', async () => {
    const a = await call('POST', SETS, set('a.b'));
    expect(causes(a)).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
  });

  it('refuses an unknown pod management policy and a negative partition', async () => {
    const a = await call(
      'POST',
      SETS,
      set('s1', {
        podManagementPolicy: 'Sometimes',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } },
      }),
    );
    expect(causes(a)).toEqual([
      "spec.podManagementPolicy: Invalid value: \"Sometimes\": must be 'OrderedReady' or 'Parallel'",
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('drops maxUnavailable while its gate is off', async () => {
    const a = await call(
      'POST',
      SETS,
      set('s2', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } }),
    );
    expect(a.body.spec?.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  });

  it('refuses an update of serviceName and takes one of replicas', async () => {
    const refused = await createThenPut(SETS, set('s3', { serviceName: 'a' }), {
      spec: set('s3', { serviceName: 'b' }).spec,
    });
    expect(causes(refused)).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
    const taken = await createThenPut(SETS, set('s4', { serviceName: 'a' }), {
      spec: set('s4', { serviceName: 'a', replicas: 3 }).spec,
    });
    expect(taken.status).toBe(200);
  });

  it('refuses a status with more ready replicas than replicas', async () => {
    const a = await createThenPut(SETS, set('s5'), { status: { replicas: 1, readyReplicas: 2 } }, '/status');
    expect(causes(a)).toEqual(['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas']);
  });
});

describe("a Pod's status", () => {
  const pod = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
  });
  const PODS = '/api/v1/namespaces/default/pods';

  it('reads podIP as podIPs[0] and refuses a bad one there', async () => {
    const a = await createThenPut(PODS, pod('p1'), { status: { podIP: '10.0.0.300' } }, '/status');
    expect(causes(a)).toEqual([
      'status.podIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });

  it('keeps the QoS class a status write leaves out, and writes podIP back from podIPs', async () => {
    const a = await createThenPut(PODS, pod('p2'), { status: { podIPs: [{ ip: '10.0.0.5' }] } }, '/status');
    expect(a.status).toBe(200);
    expect(a.body.status).toMatchObject({ qosClass: 'BestEffort', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }] });
  });
});

describe('pointer fields of immutable specs', () => {
  const CLAIMS = '/apis/resource.k8s.io/v1/namespaces/default/resourceclaims';
  const claim = (name: string, exactly: Record<string, unknown> = {}) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name },
    spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'dc', ...exactly } }] } },
  });

  it('defaults a claim to one device of ExactCount, and takes an update that spells the default out', async () => {
    const a = await createThenPut(CLAIMS, claim('c1'), {
      spec: claim('c1', { count: 1, allocationMode: 'ExactCount' }).spec,
    });
    expect(a.status).toBe(200);
    expect(a.body.spec).toEqual(claim('c1', { allocationMode: 'ExactCount', count: 1 }).spec);
  });

  it('refuses an update that sets adminAccess to false: a pointer set is a change', async () => {
    const a = await createThenPut(CLAIMS, claim('c2'), { spec: claim('c2', { adminAccess: false }).spec });
    expect(a.status).toBe(422);
    expect(a.body.details?.causes?.[0]?.field).toBe('spec');
  });

  it('refuses admin access in a namespace without the admin-access label', async () => {
    const a = await call('POST', CLAIMS, claim('c3', { adminAccess: true }));
    expect(causes(a)).toEqual([
      'spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace',
    ]);
  });
});
