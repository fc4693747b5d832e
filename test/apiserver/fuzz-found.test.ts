// What the differential fuzzer (bench/fuzz) found the embedded server doing differently from
// kube-apiserver v1.34, answered as the real one answers (test/fidelity/scenarios/fuzz-found.ts
// compares the same against it in test:real).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeKubeProtobuf, PROTOBUF_MEDIA_TYPE } from '../../src/apiserver/protobuf/index.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

interface Answer {
  status: number;
  body: {
    message?: string;
    metadata?: { uid?: string };
    spec?: Record<string, unknown>;
    details?: { causes?: Array<{ field: string; message: string }> };
  };
}

async function call(method: string, path: string, body: object | Buffer): Promise<Answer> {
  const raw = Buffer.isBuffer(body);
  const r = await fetch(`${ts.server.url}${path}`, {
    method,
    headers: { 'content-type': raw ? PROTOBUF_MEDIA_TYPE : 'application/json', accept: 'application/json' },
    body: raw ? new Uint8Array(body) : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Answer['body'] };
}
const causes = (a: Answer): string[] => (a.body.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const podTemplate = (spec: Record<string, unknown> = {}) => ({
  spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const job = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: { template: podTemplate(spec) },
});

describe('the differential fuzzer’s findings', () => {
  it('a Job is created while an admission policy matches it: its generated labels carry its stored uid', async () => {
    // The admission pass's dry run and the commit used two uids; the labels kept the first one.
    const rule = { apiGroups: ['batch'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['jobs'] };
    await call('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'jobs-pass' },
      spec: { matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }] },
    });
    await call('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'jobs-pass' },
      spec: { policyName: 'jobs-pass', validationActions: ['Deny'] },
    });
    const a = await call('POST', JOBS, job('under-policy'));
    expect(causes(a)).toEqual([]);
    expect(a.status).toBe(201);
    const labels = (a.body.spec?.template as { metadata: { labels: Record<string, string> } }).metadata.labels;
    expect(labels['batch.kubernetes.io/controller-uid']).toBe(a.body.metadata?.uid);
  });

  it('drops the pod fields of feature gates v1.34 leaves off, on create and on an update that adds them', async () => {
    const gated = {
      hostnameOverride: 'h',
      containers: [{ name: 'c', image: 'busybox', restartPolicy: 'Always', lifecycle: { stopSignal: 'SIGUSR1' } }],
    };
    const created = await call('POST', JOBS, job('gated', gated));
    expect(created.status).toBe(201);
    const spec = (created.body.spec?.template as { spec: Record<string, unknown> }).spec;
    expect(spec.hostnameOverride).toBeUndefined();
    expect(spec.containers).toEqual([expect.not.objectContaining({ restartPolicy: expect.anything() })]);
    expect(JSON.stringify(spec.containers)).not.toContain('stopSignal');
    // A Job's template is immutable: the update is admitted only because what it adds is dropped.
    await call('POST', JOBS, job('plain'));
    const stored = await (await fetch(`${ts.server.url}${JOBS}/plain`)).json();
    stored.spec.template.spec.containers[0].restartPolicy = 'Always';
    stored.spec.template.spec.hostnameOverride = 'h';
    const updated = await call('PUT', `${JOBS}/plain`, stored);
    expect(causes(updated)).toEqual([]);
    expect(updated.status).toBe(200);
  });

  it("refuses a CronJob's unknown or implicit time zone and takes the tz database's names", async () => {
    const cronJob = (name: string, timeZone: string) => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name },
      spec: { schedule: '*/5 * * * *', timeZone, jobTemplate: { spec: { template: podTemplate() } } },
    });
    const path = '/apis/batch/v1/namespaces/default/cronjobs';
    expect(causes(await call('POST', path, cronJob('tz-x', 'x')))).toEqual([
      'spec.timeZone: Invalid value: "x": unknown time zone x',
    ]);
    expect(causes(await call('POST', path, cronJob('tz-local', 'local')))).toEqual([
      'spec.timeZone: Invalid value: "local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      'spec.timeZone: Invalid value: "local": unknown time zone local',
    ]);
    expect(causes(await call('POST', path, cronJob('tz-case', 'europe/berlin')))).toEqual([
      'spec.timeZone: Invalid value: "europe/berlin": unknown time zone europe/berlin',
    ]);
    for (const [i, zone] of ['Europe/Berlin', 'US/Eastern', 'Etc/GMT+5', 'UTC'].entries())
      expect((await call('POST', path, cronJob(`tz-ok-${i}`, zone))).status).toBe(201);
  });

  it('refuses a data source added to a claim on update as a change of its spec', async () => {
    const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'ds' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    expect((await call('POST', claims, claim)).status).toBe(201);
    const a = await call('PUT', `${claims}/ds`, { ...claim, spec: { ...claim.spec, dataSourceRef: {} } });
    expect(a.status).toBe(422);
    expect(causes(a)).toContainEqual(
      expect.stringMatching(
        /^spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/,
      ),
    );
  });

  it('refuses a protobuf body with a quantity ParseQuantity refuses, as JSON is refused', async () => {
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'bad-limit' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { limits: { k: 'x' }, requests: { storage: '1Gi' } } },
    };
    const path = '/api/v1/namespaces/default/persistentvolumeclaims';
    const expected =
      'PersistentVolumeClaim in version "v1" cannot be handled as a PersistentVolumeClaim: ' +
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    for (const body of [claim, encodeKubeProtobuf(claim)]) {
      const a = await call('POST', path, body);
      expect(a.status).toBe(400);
      expect(a.body.message).toBe(expected);
    }
  });
});
