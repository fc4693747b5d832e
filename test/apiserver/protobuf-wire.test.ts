import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeKubeProtobuf, encodeKubeProtobuf } from '../../src/apiserver/protobuf/index.js';
import { protoPackage } from '../../src/apiserver/protobuf/descriptors.js';
import { DESCRIPTOR_FILE, VENDOR_DIR } from '../../src/apiserver/protobuf/vendor-files.js';
import { BUILTIN_TYPES } from '../../src/apiserver/registry/builtins.js';
import { apiVersionOf, type JsonObject, type ResourceType } from '../../src/apiserver/registry/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';
import { envelope, int, msg, objectMeta, str } from './helpers/pb-encoder.js';
import { CSR_REQUEST_B64 } from '../fixtures/csr-request.js';

/**
 * Every served built-in kind over the wire in protobuf: created from a protobuf body, read back as protobuf (GET,
 * LIST, watch frames) and compared with the JSON the server answers for the same object. Every protobuf answer is
 * also parsed by protobufjs's own reflection decoder from the vendored generated.proto (not by this server's
 * reader), so a malformed encoding fails here rather than in client-go.
 */

const PB = 'application/vnd.kubernetes.protobuf';
const NS = 'wire';
const root = protobuf.Root.fromJSON(
  JSON.parse(readFileSync(`${VENDOR_DIR}/${DESCRIPTOR_FILE}`, 'utf8')) as protobuf.INamespace,
);
const MAGIC = Buffer.from('k8s\0', 'latin1');

const podSpec = { containers: [{ name: 'c', image: 'nginx' }] };
const labels = { app: 'w' };
const template = { metadata: { labels }, spec: podSpec };

const unmatchedRule = {
  operations: ['CREATE'],
  apiGroups: ['example.invalid'],
  apiVersions: ['v1'],
  resources: ['things'],
};
const unmatchedWebhook = {
  name: 'never.called.example.com',
  rules: [unmatchedRule],
  clientConfig: { url: 'https://127.0.0.1:1/' },
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
};

/** A minimal valid object of each served built-in kind (CustomResourceDefinition has a describe of its own below). */
const OBJECTS: Record<string, JsonObject> = {
  'v1/Namespace': {},
  'v1/ConfigMap': { data: { k: 'v' }, binaryData: { b: 'AAE=' } },
  'v1/Secret': { data: { k: 'dg==' }, type: 'Opaque' },
  'v1/Service': { spec: { ports: [{ port: 80, targetPort: 'http' }], selector: labels } },
  'v1/ServiceAccount': { automountServiceAccountToken: false },
  'v1/Event': {
    involvedObject: { kind: 'Pod', name: 'p', namespace: NS },
    reason: 'R',
    message: 'm',
    type: 'Normal',
    firstTimestamp: '2026-01-02T03:04:05Z',
    eventTime: '2026-01-02T03:04:05.123456Z',
    reportingComponent: 'c',
    reportingInstance: 'i',
    action: 'A',
  },
  'v1/Pod': { spec: podSpec },
  'v1/Endpoints': { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] },
  'v1/ReplicationController': { spec: { replicas: 0, selector: labels, template } },
  'v1/PodTemplate': { template },
  'v1/PersistentVolumeClaim': { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
  'v1/PersistentVolume': {
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' } },
  },
  'v1/Node': { spec: { podCIDR: '10.1.0.0/24' } },
  'v1/LimitRange': { spec: { limits: [{ type: 'Container', default: { cpu: '500m' } }] } },
  'v1/ResourceQuota': { spec: { hard: { pods: '10' } } },
  'apps/v1/Deployment': { spec: { replicas: 0, selector: { matchLabels: labels }, template } },
  'apps/v1/StatefulSet': { spec: { replicas: 0, selector: { matchLabels: labels }, template, serviceName: 's' } },
  'apps/v1/DaemonSet': { spec: { selector: { matchLabels: labels }, template } },
  'apps/v1/ReplicaSet': { spec: { replicas: 0, selector: { matchLabels: labels }, template } },
  'apps/v1/ControllerRevision': { data: { spec: { template: { $patch: 'replace' } } }, revision: 3 },
  'batch/v1/Job': { spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } }, suspend: true } },
  'batch/v1/CronJob': {
    spec: {
      schedule: '*/5 * * * *',
      jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } },
    },
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
      maxReplicas: 3,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
    },
  },
  'policy/v1/PodDisruptionBudget': { spec: { minAvailable: 1, selector: { matchLabels: labels } } },
  'networking.k8s.io/v1/Ingress': { spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } },
  'networking.k8s.io/v1/NetworkPolicy': { spec: { podSelector: {}, policyTypes: ['Ingress'] } },
  'networking.k8s.io/v1/IngressClass': { spec: { controller: 'example.com/ingress' } },
  'discovery.k8s.io/v1/EndpointSlice': {
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.0.0.2'], conditions: { ready: true } }],
    ports: [{ port: 80 }],
  },
  'storage.k8s.io/v1/StorageClass': { provisioner: 'example.com/p', parameters: { a: 'b' } },
  'events.k8s.io/v1/Event': {
    eventTime: '2026-01-02T03:04:05.000001Z',
    reportingController: 'example.com/c',
    reportingInstance: 'i',
    action: 'A',
    reason: 'R',
    type: 'Normal',
    regarding: { kind: 'Pod', name: 'p', namespace: NS },
  },
  'coordination.k8s.io/v1/Lease': {
    spec: {
      holderIdentity: 'h',
      leaseDurationSeconds: 15,
      renewTime: '2026-01-02T03:04:05.654321Z',
      leaseTransitions: 0,
    },
  },
  'scheduling.k8s.io/v1/PriorityClass': { value: 1000, description: 'd' },
  'rbac.authorization.k8s.io/v1/Role': { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  'rbac.authorization.k8s.io/v1/RoleBinding': {
    subjects: [{ kind: 'User', name: 'u' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
  },
  'rbac.authorization.k8s.io/v1/ClusterRole': { rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': {
    subjects: [{ kind: 'Group', name: 'g', apiGroup: 'rbac.authorization.k8s.io' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
  },
  'autoscaling/v1/HorizontalPodAutoscaler': {
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
      maxReplicas: 3,
      targetCPUUtilizationPercentage: 50,
    },
  },
  'certificates.k8s.io/v1/CertificateSigningRequest': {
    spec: { request: CSR_REQUEST_B64, signerName: 'example.com/s', usages: ['client auth'], expirationSeconds: 3600 },
  },
  'storage.k8s.io/v1/CSIDriver': { spec: { attachRequired: true, podInfoOnMount: false } },
  'storage.k8s.io/v1/CSINode': {
    spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n1', topologyKeys: ['zone'] }] },
  },
  'storage.k8s.io/v1/CSIStorageCapacity': { storageClassName: 'standard', capacity: '10Gi' },
  'storage.k8s.io/v1/VolumeAttachment': {
    spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } },
  },
  'storage.k8s.io/v1/VolumeAttributesClass': { driverName: 'csi.example.com', parameters: { iops: '1000' } },
  'networking.k8s.io/v1/ServiceCIDR': { spec: { cidrs: ['10.200.0.0/16'] } },
  'networking.k8s.io/v1/IPAddress': {
    spec: { parentRef: { group: '', resource: 'services', namespace: NS, name: 's' } },
  },
  'resource.k8s.io/v1/DeviceClass': { spec: { selectors: [{ cel: { expression: 'true' } }] } },
  'resource.k8s.io/v1/ResourceClaim': {
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
  },
  'resource.k8s.io/v1/ResourceClaimTemplate': {
    spec: { spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'c' } }] } } },
  },
  'resource.k8s.io/v1/ResourceSlice': {
    spec: { driver: 'gpu.example.com', pool: { name: 'p', generation: 1, resourceSliceCount: 1 }, nodeName: 'n1' },
  },
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': {
    spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 },
  },
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': {
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } },
  },
  'node.k8s.io/v1/RuntimeClass': { handler: 'runc', overhead: { podFixed: { cpu: '100m' } } },
  // Webhooks and policies that match nothing this test writes, so none is called.
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': { webhooks: [unmatchedWebhook] },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': { webhooks: [unmatchedWebhook] },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': {
    spec: { validations: [{ expression: 'true' }], matchConstraints: { resourceRules: [unmatchedRule] } },
  },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': {
    spec: { policyName: 'pb-validatingadmissionpolicy-admissionregistration', validationActions: ['Deny'] },
  },
  'apiregistration.k8s.io/v1/APIService': {
    spec: { group: 'example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 },
  },
};

// Kinds that are not stored (reviews, bindings, componentstatuses) have no list or watch to compare.
const served = BUILTIN_TYPES.filter(
  (t) => t.group !== 'apiextensions.k8s.io' && (!t.verbs || t.verbs.includes('watch')),
);
const key = (t: ResourceType): string => `${apiVersionOf(t)}/${t.kind}`;
const path = (t: ResourceType, name?: string): string => {
  const base = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  return `${base}${t.namespaced ? `/namespaces/${NS}` : ''}/${t.plural}${name ? `/${name}` : ''}`;
};
const nameOf = (t: ResourceType): string => {
  // IPAddresses are named by their address, APIServices version.group.
  if (t.kind === 'IPAddress') return '10.200.0.9';
  if (t.kind === 'APIService') return 'v1.example.com';
  return `pb-${t.kind.toLowerCase()}${t.group ? `-${t.group.split('.')[0]}` : ''}${t.group === 'autoscaling' ? t.version : ''}`;
};

/** protobufjs's own reading of an envelope: the typeMeta, and the raw object decoded as `message` (throws if malformed). */
function independentDecode(
  body: Buffer,
  message: string,
): { apiVersion: string; kind: string; object: protobuf.Message } {
  expect(body.subarray(0, 4).equals(MAGIC), 'the k8s\\0 prefix').toBe(true);
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(body.subarray(4)) as unknown as {
    typeMeta: { apiVersion: string; kind: string };
    raw: Uint8Array;
  };
  return { ...unknown.typeMeta, object: root.lookupType(message).decode(unknown.raw) };
}

/** The JSON object with what a round trip through a Go struct normalises away (status written by the server, …). */
function comparable(o: JsonObject): JsonObject {
  return JSON.parse(JSON.stringify(o)) as JsonObject;
}

describe('protobuf on the wire, every served built-in kind', () => {
  let ts: TestServer;
  const url = (p: string): string => `${ts.server.url}${p}`;
  const getJson = async (p: string): Promise<JsonObject> => (await (await fetch(url(p))).json()) as JsonObject;
  const getPb = async (p: string, accept = `${PB}, application/json`): Promise<Response> =>
    fetch(url(p), { headers: { accept } });

  beforeAll(async () => {
    ts = await startTestServer();
    const r = await fetch(url('/api/v1/namespaces'), {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: NS } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(201);
  });
  afterAll(async () => ts?.stop());

  it('has a minimal object for every served built-in kind', () => {
    expect(served.map(key).filter((k) => !OBJECTS[k])).toEqual([]);
  });

  it.each(served.map((t) => [key(t), t] as const))(
    '%s: create from protobuf, GET and LIST as protobuf equal the JSON answers',
    async (_k, t) => {
      const apiVersion = apiVersionOf(t);
      const sent = {
        apiVersion,
        kind: t.kind,
        metadata: { name: nameOf(t), labels: { wire: nameOf(t) } },
        ...OBJECTS[key(t)],
      } as JsonObject;
      const created = await fetch(url(path(t)), {
        method: 'POST',
        body: new Uint8Array(encodeKubeProtobuf(sent)),
        headers: { 'content-type': PB, accept: PB },
      });
      expect(created.status, await created.clone().text()).toBe(201);
      expect(created.headers.get('content-type')).toBe(PB);
      const message = `${protoPackage(apiVersion)}.${t.kind}`;
      const createdBody = Buffer.from(await created.arrayBuffer());
      expect(independentDecode(createdBody, message)).toMatchObject({ apiVersion, kind: t.kind });

      const json = await getJson(path(t, nameOf(t)));
      const got = await getPb(path(t, nameOf(t)));
      expect(got.headers.get('content-type')).toBe(PB);
      const body = Buffer.from(await got.arrayBuffer());
      independentDecode(body, message);
      expect(comparable(decodeKubeProtobuf(body).object)).toEqual(comparable(normalised(json, message)));
      // What was sent survives: the fields of the minimal object are in the stored JSON (status is reset on create).
      const { status: _status, ...kept } = normalised(sent, message);
      expect(json).toMatchObject(comparable(kept));

      const list = await getPb(`${path(t)}?labelSelector=wire%3D${nameOf(t)}`);
      const listBody = Buffer.from(await list.arrayBuffer());
      const decodedList = independentDecode(listBody, `${message}List`);
      expect(decodedList.kind).toBe(t.listKind);
      const items = decodeKubeProtobuf(listBody).object.items as JsonObject[];
      expect(items.map((i) => (i.metadata as JsonObject).name)).toEqual([nameOf(t)]);
    },
  );

  it('answers JSON for a protobuf-or-JSON Accept on a custom resource, and 406 for protobuf alone', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gizmos.example.com' },
      spec: {
        group: 'example.com',
        names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    const r = await fetch(url('/apis/apiextensions.k8s.io/v1/customresourcedefinitions'), {
      method: 'POST',
      body: JSON.stringify(crd),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(201);
    const gizmos = `/apis/example.com/v1/namespaces/${NS}/gizmos`;
    await waitFor(async () => (await fetch(url(gizmos))).status === 200, { what: 'the Gizmo resource to be served' });
    const g = await fetch(url(gizmos), {
      method: 'POST',
      body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g1' } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(g.status).toBe(201);
    const both = await getPb(gizmos);
    expect(both.headers.get('content-type')).toBe('application/json');
    expect(((await both.json()) as JsonObject).kind).toBe('GizmoList');
    expect((await getPb(gizmos, PB)).status).toBe(406);

    // A protobuf body for a custom resource: kube-apiserver's CRD handler decodes into Unstructured and refuses.
    const body = envelope('example.com/v1', 'Gizmo', objectMeta({ name: 'g2' }));
    const refused = await fetch(url(gizmos), {
      method: 'POST',
      body: new Uint8Array(body),
      headers: { 'content-type': PB },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'Gizmo in version "v1" cannot be handled as a Gizmo: object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message',
    );

    // Metadata-only, as the metadata informers of KCM's garbage collector ask: protobuf even for a custom resource.
    const accept = `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`;
    const meta = await getPb(gizmos, accept);
    expect(meta.headers.get('content-type')).toBe(PB);
    const metaBody = Buffer.from(await meta.arrayBuffer());
    const decoded = independentDecode(metaBody, 'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList');
    expect(decoded.kind).toBe('PartialObjectMetadataList');
    const items = decodeKubeProtobuf(metaBody).object.items as JsonObject[];
    expect(items.map((i) => (i.metadata as JsonObject).name)).toEqual(['g1']);
  });

  it('streams a protobuf watch as length-prefixed WatchEvent frames, each holding an envelope-encoded object', async () => {
    const cms = `/api/v1/namespaces/${NS}/configmaps`;
    const list = await getJson(cms);
    const rv = String((list.metadata as JsonObject).resourceVersion);
    const ac = new AbortController();
    const res = await fetch(url(`${cms}?watch=true&resourceVersion=${rv}`), {
      headers: { accept: `${PB}, application/json` },
      signal: ac.signal,
    });
    expect(res.headers.get('content-type')).toBe(`${PB};stream=watch`);
    const frames = readFrames(res);
    await fetch(url(cms), {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'watched' }, data: { a: '1' } }),
      headers: { 'content-type': 'application/json' },
    });
    await fetch(url(`${cms}/watched`), { method: 'DELETE' });
    const events: Array<{ type: string; object: JsonObject }> = [];
    for await (const frame of frames) {
      const event = root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent').decode(frame) as unknown as {
        type: string;
        object: { raw: Uint8Array };
      };
      const raw = Buffer.from(event.object.raw);
      independentDecode(raw, 'k8s.io.api.core.v1.ConfigMap');
      events.push({ type: event.type, object: decodeKubeProtobuf(raw).object });
      if (events.length === 2) break;
    }
    ac.abort();
    expect(events.map((e) => [e.type, e.object.kind, (e.object.metadata as JsonObject).name, e.object.data])).toEqual([
      ['ADDED', 'ConfigMap', 'watched', { a: '1' }],
      ['DELETED', 'ConfigMap', 'watched', { a: '1' }],
    ]);
  });

  it('streams PartialObjectMetadata in a metadata-only watch, in JSON and in protobuf', async () => {
    const cms = `/api/v1/namespaces/${NS}/configmaps`;
    const rv = String(((await getJson(cms)).metadata as JsonObject).resourceVersion);
    const jsonAccept = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
    const pbAccept = `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,${jsonAccept}`;
    const ac = new AbortController();
    const jsonWatch = await fetch(url(`${cms}?watch=true&resourceVersion=${rv}`), {
      headers: { accept: jsonAccept },
      signal: ac.signal,
    });
    const pbWatch = await fetch(url(`${cms}?watch=true&resourceVersion=${rv}`), {
      headers: { accept: pbAccept },
      signal: ac.signal,
    });
    await fetch(url(cms), {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'meta-only', labels }, data: { big: 'x' } }),
      headers: { 'content-type': 'application/json' },
    });
    const jsonLine = await firstLine(jsonWatch);
    const pbFrame = await firstFrame(pbWatch);
    ac.abort();
    const fromJson = JSON.parse(jsonLine) as { type: string; object: JsonObject };
    expect(fromJson.type).toBe('ADDED');
    expect(fromJson.object.kind).toBe('PartialObjectMetadata');
    expect(fromJson.object.apiVersion).toBe('meta.k8s.io/v1');
    expect(fromJson.object.data).toBeUndefined();
    expect((fromJson.object.metadata as JsonObject).labels).toEqual(labels);
    const event = root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent').decode(pbFrame) as unknown as {
      type: string;
      object: { raw: Uint8Array };
    };
    const inner = independentDecode(
      Buffer.from(event.object.raw),
      'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata',
    );
    expect([event.type, inner.apiVersion, inner.kind]).toEqual(['ADDED', 'meta.k8s.io/v1', 'PartialObjectMetadata']);
    expect(decodeKubeProtobuf(Buffer.from(event.object.raw)).object.metadata).toEqual(fromJson.object.metadata);
  });

  describe("bad protobuf bodies: a 4xx with kube-apiserver's text, and the server keeps serving", () => {
    const post = (body: Buffer): Promise<Response> =>
      fetch(url(`/api/v1/namespaces/${NS}/configmaps`), {
        method: 'POST',
        body: new Uint8Array(body),
        headers: { 'content-type': PB },
      });
    const message = async (r: Response): Promise<string> => ((await r.json()) as { message: string }).message;

    it('a body without the k8s\\0 prefix', async () => {
      const text = Buffer.from('not protobuf at all');
      const r = await post(text);
      expect(r.status).toBe(400);
      expect(await message(r)).toBe(
        `the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (${text.toString('hex')})`,
      );
    });

    it('a truncated varint and a truncated message', async () => {
      const r = await post(
        envelope('v1', 'ConfigMap', Buffer.concat([objectMeta({ name: 'x' }), Buffer.from([0x20, 0xff])])),
      );
      expect(r.status).toBe(400);
      expect(await message(r)).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF');
      const cut = envelope(
        'v1',
        'ConfigMap',
        Buffer.concat([objectMeta({ name: 'x' }), Buffer.from([0x12, 0x40, 0x0a])]),
      );
      expect(await message(await post(cut))).toBe(
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF',
      );
    });

    it("a field number out of range, an end-group tag, a known field of the wrong wire type: gogo's texts", async () => {
      const cannot = 'ConfigMap in version "v1" cannot be handled as a ConfigMap';
      const zero = await post(
        envelope('v1', 'ConfigMap', Buffer.concat([objectMeta({ name: 'x' }), Buffer.from([0x00, 0x01])])),
      );
      expect(zero.status).toBe(400);
      expect(await message(zero)).toBe(`${cannot}: proto: ConfigMap: illegal tag 0 (wire type 0)`);
      // Field number 2^31 (tag 2^34): negative as gogo's int32.
      const huge = await post(
        envelope(
          'v1',
          'ConfigMap',
          Buffer.concat([objectMeta({ name: 'x' }), Buffer.from([0x80, 0x80, 0x80, 0x80, 0x40, 0x01])]),
        ),
      );
      expect(await message(huge)).toBe(`${cannot}: proto: ConfigMap: illegal tag -2147483648 (wire type 17179869184)`);
      const group = await post(
        envelope('v1', 'ConfigMap', Buffer.concat([objectMeta({ name: 'x' }), Buffer.from([0x0c])])),
      );
      expect(await message(group)).toBe(`${cannot}: proto: ConfigMap: wiretype end group for non-group`);
      // Field 1 (metadata) as a varint.
      const wrongWire = await post(envelope('v1', 'ConfigMap', Buffer.concat([int(4, 1), Buffer.from([0x08, 0x01])])));
      expect(wrongWire.status).toBe(400);
      expect(await message(wrongWire)).toBe(`${cannot}: proto: wrong wireType = 0 for field ObjectMeta`);
    });

    it('a body of another kind', async () => {
      const r = await post(
        envelope('v1', 'Secret', Buffer.concat([objectMeta({ name: 'x' }), msg(2, str(1, 'k'), str(2, 'v'))])),
      );
      expect(r.status).toBe(400);
      expect(await message(r)).toBe(
        'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
      );
    });

    it('a 4 MiB body', async () => {
      const huge = envelope(
        'v1',
        'ConfigMap',
        Buffer.concat([objectMeta({ name: 'x' }), msg(2, str(1, 'k'), str(2, 'v'.repeat(4 * 1024 * 1024)))]),
      );
      const r = await post(huge);
      expect(r.status).toBe(413);
      expect(await message(r)).toBe('Request entity too large: limit is 3145728');
      // And the server still serves: the next body is read and stored.
      const next = envelope('v1', 'ConfigMap', Buffer.concat([objectMeta({ name: 'after-huge' }), int(4, 1)]));
      expect((await post(next)).status).toBe(201);
    });
  });
});

/** What a protobuf round trip of `json` gives (Go's zero values and omitempty applied), for a JSON-to-JSON comparison. */
function normalised(json: JsonObject, message: string): JsonObject {
  const bytes = encodeKubeProtobuf(json);
  expect(message).toContain(String(json.kind));
  return decodeKubeProtobuf(bytes).object;
}

async function* readFrames(res: Response): AsyncGenerator<Buffer> {
  let buf = Buffer.alloc(0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
      const n = buf.readUInt32BE(0);
      yield buf.subarray(4, 4 + n);
      buf = buf.subarray(4 + n);
    }
  }
}

async function firstFrame(res: Response): Promise<Buffer> {
  for await (const f of readFrames(res)) return f;
  throw new Error('the watch ended without a frame');
}

async function firstLine(res: Response): Promise<string> {
  let text = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += Buffer.from(chunk).toString('utf8');
    const nl = text.indexOf('\n');
    if (nl >= 0) return text.slice(0, nl);
  }
  throw new Error('the watch ended without an event');
}

describe('CustomResourceDefinition in protobuf (k8s.io/apiextensions-apiserver generated.proto)', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => ts?.stop());

  const schemaMessage = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition';
  const crd = (name: string, schema: JsonObject): JsonObject => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.example.com` },
    spec: {
      group: 'example.com',
      names: {
        plural: `${name}s`,
        singular: name,
        kind: name[0]!.toUpperCase() + name.slice(1),
        listKind: `${name[0]!.toUpperCase()}${name.slice(1)}List`,
      },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  });

  it('creates a CRD from protobuf, its schema unions and JSON defaults intact, and answers it in protobuf', async () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            size: { type: 'integer', default: 3, minimum: 1 },
            mode: { type: 'string', enum: ['a', 'b'] },
            tags: { type: 'array', items: { type: 'string' } },
            extra: { type: 'object', additionalProperties: { type: 'string' } },
            open: { type: 'object', additionalProperties: true },
          },
          required: ['mode'],
        },
      },
    };
    const body = encodeKubeProtobuf(crd('sprocket', schema));
    independentDecode(body, schemaMessage);
    const r = await fetch(`${ts.server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: 'POST',
      body: new Uint8Array(body),
      headers: { 'content-type': PB, accept: `${PB}, application/json` },
    });
    expect(r.status, await r.clone().text()).toBe(201);
    expect(r.headers.get('content-type')).toBe(PB);
    const created = decodeKubeProtobuf(Buffer.from(await r.arrayBuffer())).object;
    const stored = (created.spec as { versions: Array<{ schema: { openAPIV3Schema: JsonObject } }> }).versions[0]!
      .schema.openAPIV3Schema;
    expect(stored).toEqual(schema);
  });

  it('refuses messages nested past its bound with a 400, and keeps serving', async () => {
    let schema: JsonObject = { type: 'string' };
    for (let i = 0; i < 600; i++) schema = { type: 'object', properties: { x: schema } };
    const r = await fetch(`${ts.server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: 'POST',
      body: new Uint8Array(encodeKubeProtobuf(crd('deep', schema))),
      headers: { 'content-type': PB },
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toMatch(
      /^CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: proto: messages nested deeper than 500 levels/,
    );
    expect((await fetch(`${ts.server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`)).status).toBe(200);
  });
});

describe('the scale subresource in protobuf', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => ts?.stop());

  it('takes an autoscaling/v1 Scale body and answers one', async () => {
    const deployments = `${ts.server.url}/apis/apps/v1/namespaces/default/deployments`;
    const d = { metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: labels }, template } };
    expect(
      (
        await fetch(deployments, {
          method: 'POST',
          body: JSON.stringify(d),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(201);
    const scale = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 4 },
    };
    const r = await fetch(`${deployments}/web/scale`, {
      method: 'PUT',
      body: new Uint8Array(encodeKubeProtobuf(scale)),
      headers: { 'content-type': PB, accept: PB },
    });
    expect(r.status, await r.clone().text()).toBe(200);
    const body = Buffer.from(await r.arrayBuffer());
    expect(independentDecode(body, 'k8s.io.api.autoscaling.v1.Scale').kind).toBe('Scale');
    expect(decodeKubeProtobuf(body).object.spec).toEqual({ replicas: 4 });
  });
});
