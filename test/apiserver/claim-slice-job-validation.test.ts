// PersistentVolumeClaim, EndpointSlice and Job validation and update rules (validation/persistent-volume-claims.ts,
// endpoint-slices.ts, batch.ts) over HTTP, with the paths, reasons, texts and order of upstream's
// ValidatePersistentVolumeClaim(Update), ValidateEndpointSlice(Update) and ValidateJob(Update).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, apiCalls } from '../helpers/api-call.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

const { call, causes } = apiCalls(() => ts);
const kinds = (a: Answer): string[] => (a.body.details?.causes ?? []).map((c) => `${c.field} ${c.reason}`);
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('EndpointSlice (ValidateEndpointSlice, ValidateEndpointSliceUpdate)', () => {
  const slices = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
  const slice = (name: string, rest: object) => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name },
    ...rest,
  });

  it('refuses empty and unusable addresses, a bad hostname, two unnamed ports and a bad protocol, in order', async () => {
    const a = await call(
      'POST',
      slices,
      slice('s1', {
        addressType: 'IPv4',
        endpoints: [{ addresses: [] }, { addresses: ['10.0.0.1x', '127.0.0.1', '::1'], hostname: 'Bad_Host' }],
        ports: [{ port: 80 }, { port: -1 }, { name: 'Bad', protocol: 'XTP' }],
      }),
    );
    expect(a.status).toBe(422);
    expect(causes(a)).toEqual([
      'endpoints[0].addresses: Required value: must contain at least 1 address',
      'endpoints[1].addresses[0]: Invalid value: "10.0.0.1x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'endpoints[1].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'endpoints[1].addresses: Invalid value: "::1": must be an IPv4 address',
      'endpoints[1].addresses[2]: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      `endpoints[1].hostname: Invalid value: "Bad_Host": ${LABEL}`,
      'ports[1].name: Duplicate value: ""',
      `ports[2].name: Invalid value: "Bad": ${LABEL}`,
      'ports[2].protocol: Unsupported value: "XTP": supported values: "SCTP", "TCP", "UDP"',
    ]);
  });

  it('refuses a bad address type; keeps its address type on update, other fields may change', async () => {
    const bad = await call('POST', slices, slice('s2', { addressType: 'Bogus', endpoints: [] }));
    expect(causes(bad)).toEqual(['addressType: Unsupported value: "Bogus": supported values: "FQDN", "IPv4", "IPv6"']);
    const created = await call(
      'POST',
      slices,
      slice('s3', { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ port: 80 }] }),
    );
    expect(created.status).toBe(201);
    const moved = await call('PUT', `${slices}/s3`, { ...created.body, addressType: 'FQDN' });
    expect(causes(moved)).toEqual(['addressType: Invalid value: "FQDN": field is immutable']);
    const ok = await call('PUT', `${slices}/s3`, { ...created.body, endpoints: [{ addresses: ['10.0.0.2'] }] });
    expect(ok.status).toBe(200);
  });
});

describe('PersistentVolumeClaim (ValidatePersistentVolumeClaim, ValidatePersistentVolumeClaimUpdate)', () => {
  const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
  const claim = (name: string, spec: object) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec,
  });

  it('refuses no access modes, a zero size, a bad mode, a data source of another kind and a bad class', async () => {
    const a = await call(
      'POST',
      claims,
      claim('c1', {
        accessModes: [],
        resources: { requests: { storage: '0' } },
        volumeMode: 'Bogus',
        dataSourceRef: { kind: 'Snapshot', name: 's' },
        volumeAttributesClassName: 'Bad_Class',
      }),
    );
    expect(a.status).toBe(422);
    expect(causes(a)).toEqual([
      'spec.accessModes: Required value: at least 1 access mode is required',
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
      'spec.volumeMode: Unsupported value: "Bogus": supported values: "Block", "Filesystem"',
      `spec.dataSource: Invalid value: "Snapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
      `spec.dataSourceRef: Invalid value: "Snapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
      `spec.volumeAttributesClassName: Invalid value: "Bad_Class": ${SUBDOMAIN}`,
    ]);
  });

  it('stores a data source in both fields, as NormalizeDataSources does', async () => {
    const a = await call(
      'POST',
      claims,
      claim('c2', {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '1Gi' } },
        dataSource: { kind: 'PersistentVolumeClaim', name: 'src' },
      }),
    );
    expect(a.status).toBe(201);
    expect((a.body.spec as Record<string, unknown>).dataSourceRef).toEqual({
      kind: 'PersistentVolumeClaim',
      name: 'src',
    });
  });

  it('keeps its spec and volumeMode on update; a claim without a class may be given one', async () => {
    const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
    const created = await call('POST', claims, claim('c3', spec));
    expect(created.status).toBe(201);
    const stored = created.body.spec as Record<string, unknown>;
    const moved = await call('PUT', `${claims}/c3`, {
      ...created.body,
      spec: { ...stored, accessModes: ['ReadWriteMany'], volumeMode: 'Block' },
    });
    expect(kinds(moved)).toEqual(['spec FieldValueForbidden', 'volumeMode FieldValueInvalid']);
    expect(causes(moved)[0]).toMatch(
      /^spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims/,
    );
    const classed = await call('PUT', `${claims}/c3`, {
      ...created.body,
      spec: { ...stored, storageClassName: 'fast' },
    });
    expect(classed.status).toBe(200);
  });

  it('refuses a status with an allocated resource other than storage and a resize status outside the set', async () => {
    const created = await call(
      'POST',
      claims,
      claim('c4', { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }),
    );
    const a = await call('PUT', `${claims}/c4/status`, {
      ...created.body,
      status: { allocatedResources: { cpu: '1' }, allocatedResourceStatuses: { storage: 'Resizing' } },
    });
    expect(causes(a)).toEqual([
      'status.allocatedResourceStatuses: Unsupported value: "storage": supported values: "ControllerResizeFailed", "ControllerResizeInProgress", "NodeResizeFailed", "NodeResizeInProgress", "NodeResizePending"',
      'status.allocatedResources: Unsupported value: "cpu": supported values: "storage"',
    ]);
    const bound = await call('PUT', `${claims}/c4/status`, {
      ...created.body,
      status: { phase: 'Bound', capacity: { storage: '1Gi' } },
    });
    expect(bound.status).toBe(200);
  });
});

describe('Job (ValidateJob, ValidateJobUpdate)', () => {
  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  const job = (name: string, spec: object, template: object = {}) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      template: { ...template, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } },
      ...spec,
    },
  });

  it('refuses a manual selector left out: required, and selecting nothing', async () => {
    const a = await call('POST', jobs, job('j1', { manualSelector: true }));
    expect(causes(a)).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`',
    ]);
  });

  it('refuses per-index and success policies of a non-indexed Job, a bad managedBy and replacement policy', async () => {
    const a = await call(
      'POST',
      jobs,
      job('j2', { backoffLimitPerIndex: 1, managedBy: 'x', successPolicy: {}, podReplacementPolicy: 'Bogus' }),
    );
    expect(kinds(a)).toEqual([
      'spec.managedBy FieldValueInvalid',
      'spec.backoffLimitPerIndex FieldValueInvalid',
      'spec.successPolicy FieldValueInvalid',
      'spec.podReplacementPolicy FieldValueNotSupported',
    ]);
    expect(causes(a)[0]).toBe(
      'spec.managedBy: Invalid value: "x": must be a domain-prefixed path (such as "acme.io/foo")',
    );
    expect(causes(a)[1]).toBe('spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode');
  });

  it('refuses a selector of its own when it is to be generated', async () => {
    const a = await call(
      'POST',
      jobs,
      job('j3', { selector: { matchLabels: { a: 'b' } } }, { metadata: { labels: { a: 'b' } } }),
    );
    expect(kinds(a)).toEqual(['spec.selector FieldValueInvalid']);
    expect(causes(a)[0]).toMatch(/`selector` not auto-generated$/);
  });

  it('keeps completions on update; parallelism may change', async () => {
    const created = await call('POST', jobs, job('j4', {}));
    expect(created.status).toBe(201);
    const spec = created.body.spec as Record<string, unknown>;
    const moved = await call('PUT', `${jobs}/j4`, { ...created.body, spec: { ...spec, completions: 2 } });
    expect(causes(moved)).toEqual(['spec.completions: Invalid value: 2: field is immutable']);
    const scaled = await call('PUT', `${jobs}/j4`, { ...created.body, spec: { ...spec, parallelism: 3 } });
    expect(scaled.status).toBe(200);
  });

  it('refuses, on update, a template without its generated labels', async () => {
    const created = await call('POST', jobs, job('j6', {}));
    const spec = created.body.spec as { template: Record<string, unknown> };
    const moved = await call('PUT', `${jobs}/j6`, {
      ...created.body,
      spec: { ...spec, template: { ...spec.template, metadata: {} } },
    });
    const uid = (created.body.metadata as { uid: string }).uid;
    expect(causes(moved).slice(0, 4)).toEqual([
      `spec.template.metadata.labels[controller-uid]: Required value: must be '${uid}'`,
      "spec.template.metadata.labels[job-name]: Required value: must be 'j6'",
      `spec.template.metadata.labels[batch.kubernetes.io/controller-uid]: Required value: must be '${uid}'`,
      "spec.template.metadata.labels[batch.kubernetes.io/job-name]: Required value: must be 'j6'",
    ]);
    expect(kinds(moved).slice(4)).toEqual([
      'spec.template.metadata.labels FieldValueInvalid',
      'spec.template.metadata.labels FieldValueInvalid',
      'spec.template FieldValueInvalid',
    ]);
  });

  it('refuses status writes a Job controller would not make: more ready than active, indexes of a non-indexed Job', async () => {
    const created = await call('POST', jobs, job('j7', {}));
    const status = (s: object) => call('PUT', `${jobs}/j7/status`, { ...created.body, status: s });
    expect(causes(await status({ ready: 2 }))).toEqual([
      'status.ready: Invalid value: 2: cannot set more ready pods than active',
    ]);
    expect(causes(await status({ completedIndexes: 'x' }))).toEqual([
      'status.completedIndexes: Invalid value: "x": error parsing completedIndexes: cannot convert string to integer for index: "x"',
      'status.completedIndexes: Invalid value: "x": cannot set non-empty completedIndexes when non-indexed completion mode',
    ]);
    expect((await status({ active: 2, ready: 1 })).status).toBe(200);
  });

  it("refuses bad names in the template's pod spec: hostname, an empty runtime class, node selector values", async () => {
    const a = await call('POST', jobs, {
      ...job('j8', {}),
      spec: {
        template: {
          spec: {
            containers: [{ name: 'c', image: 'i' }],
            restartPolicy: 'Never',
            hostname: 'Bad_Host',
            runtimeClassName: '',
            nodeSelector: { zone: 'bad value' },
          },
        },
      },
    });
    expect(kinds(a)).toEqual([
      'spec.template.spec.nodeSelector FieldValueInvalid',
      'spec.template.spec.hostname FieldValueInvalid',
      'spec.template.spec.runtimeClassName FieldValueInvalid',
    ]);
    expect(causes(a)[1]).toBe(`spec.template.spec.hostname: Invalid value: "Bad_Host": ${LABEL}`);
  });

  it('refuses a PUT of the body it was created from: no selector and no generated labels, each listed twice', async () => {
    const created = await call('POST', jobs, job('j9', {}));
    const meta = created.body.metadata as { resourceVersion: string };
    const body = job('j9', {});
    const a = await call('PUT', `${jobs}/j9`, {
      ...body,
      metadata: { name: 'j9', resourceVersion: meta.resourceVersion },
    });
    expect(kinds(a)).toEqual([
      'spec.selector FieldValueRequired',
      'spec.template.metadata.labels FieldValueInvalid',
      'spec.selector FieldValueRequired',
      'spec.template.metadata.labels FieldValueInvalid',
      'spec.selector FieldValueInvalid',
      'spec.template FieldValueInvalid',
    ]);
  });
});
