import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubeconfigCall } from '../helpers/kube-http.js';
import type { ApiCall } from './admission/webhook-cases.js';

// The ServiceAccount admission plugin on Pods created over HTTP: the projected kube-api-access-<5> volume
// and a read-only mount in every container unless the Pod or its ServiceAccount opts out, the account's
// imagePullSecrets, the refusal of a missing account or of a mirror pod naming one; and the `default`
// account every namespace has (controllers/default-service-accounts.ts).

let server: TestServer;
let call: ApiCall;
beforeAll(async () => {
  server = await startTestServer();
  call = kubeconfigCall(server.kubeconfig);
});
afterAll(async () => {
  await server?.stop();
});

interface PodSpec {
  serviceAccountName?: string;
  volumes?: Array<{ name: string; projected?: unknown }>;
  containers: Array<{ volumeMounts?: unknown[] }>;
  initContainers?: Array<{ volumeMounts?: unknown[] }>;
}

const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    containers: [
      { name: 'a', image: 'nginx' },
      { name: 'b', image: 'nginx' },
    ],
    ...spec,
  },
});
const create = async (body: unknown): Promise<PodSpec> => {
  const r = await call('POST', '/api/v1/namespaces/default/pods', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.spec as PodSpec;
};

it('a new Pod gets the projected token volume and a mount in each container', async () => {
  const spec = await create(pod('p1', { initContainers: [{ name: 'i', image: 'busybox' }] }));
  expect(spec.serviceAccountName).toBe('default');
  const volume = spec.volumes?.find((v) => v.name.startsWith('kube-api-access-'));
  expect(volume?.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  expect(volume?.projected).toEqual({
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    defaultMode: 420,
  });
  const mount = { name: volume?.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
  for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) expect(c.volumeMounts).toEqual([mount]);
  expect(spec.volumes).toHaveLength(1);
});

it('automountServiceAccountToken false on the Pod or on its ServiceAccount leaves it without', async () => {
  expect((await create(pod('p2', { automountServiceAccountToken: false }))).volumes).toBeUndefined();
  const sa = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'quiet' },
    automountServiceAccountToken: false,
  };
  expect((await call('POST', '/api/v1/namespaces/default/serviceaccounts', sa)).status).toBe(201);
  expect((await create(pod('p3', { serviceAccountName: 'quiet' }))).volumes).toBeUndefined();
  // The Pod's own true wins over its account's false.
  const spec = await create(pod('p4', { serviceAccountName: 'quiet', automountServiceAccountToken: true }));
  expect(spec.volumes?.map((v) => v.name)).toEqual([expect.stringMatching(/^kube-api-access-/)]);
});

it('refuses a Pod whose ServiceAccount does not exist, in kube-apiserver 1.34.4 words', async () => {
  const r = await call('POST', '/api/v1/namespaces/default/pods', pod('p5', { serviceAccountName: 'nope' }));
  expect(r.status).toBe(403);
  expect(r.body).toMatchObject({
    reason: 'Forbidden',
    message: 'pods "p5" is forbidden: error looking up service account default/nope: serviceaccount "nope" not found',
    details: { name: 'p5', kind: 'pods' },
  });
});

it('a new namespace has its default ServiceAccount before its create is answered, and gets it back', async () => {
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sa-fresh' } };
  expect((await call('POST', '/api/v1/namespaces', ns)).status).toBe(201);
  const sa = await call('GET', '/api/v1/namespaces/sa-fresh/serviceaccounts/default');
  expect(sa.status).toBe(200);
  expect(sa.body).toMatchObject({ metadata: { name: 'default', namespace: 'sa-fresh' } });
  const created = await call('POST', '/api/v1/namespaces/sa-fresh/pods', pod('first'));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await call('DELETE', '/api/v1/namespaces/sa-fresh/serviceaccounts/default')).status).toBe(200);
  expect((await call('GET', '/api/v1/namespaces/sa-fresh/serviceaccounts/default')).status).toBe(200);
});

it("a Pod without imagePullSecrets gets its account's", async () => {
  const sa = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'puller' },
    imagePullSecrets: [{ name: 'registry' }],
  };
  expect((await call('POST', '/api/v1/namespaces/default/serviceaccounts', sa)).status).toBe(201);
  const r = await call('POST', '/api/v1/namespaces/default/pods', pod('p6', { serviceAccountName: 'puller' }));
  expect((r.body.spec as { imagePullSecrets?: unknown }).imagePullSecrets).toEqual([{ name: 'registry' }]);
  const own = pod('p7', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }] });
  const r2 = await call('POST', '/api/v1/namespaces/default/pods', own);
  expect((r2.body.spec as { imagePullSecrets?: unknown }).imagePullSecrets).toEqual([{ name: 'mine' }]);
});

it('refuses a mirror pod that names a ServiceAccount, and admits one that names none', async () => {
  const mirror = (name: string, spec: Record<string, unknown> = {}) => {
    const p = pod(name, spec);
    return { ...p, metadata: { name, annotations: { 'kubernetes.io/config.mirror': 'x' } } };
  };
  const r = await call('POST', '/api/v1/namespaces/default/pods', mirror('m1', { serviceAccountName: 'default' }));
  expect(r.status).toBe(403);
  expect(r.body).toMatchObject({ message: 'pods "m1" is forbidden: a mirror pod may not reference service accounts' });
  const ok = await call('POST', '/api/v1/namespaces/default/pods', mirror('m2'));
  expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  expect((ok.body.spec as PodSpec).volumes).toBeUndefined();
});
