import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_V2_PROTOBUF } from '../../src/apiserver/http/openapi-v2/index.js';
import { KUBERNETES_VERSION } from '../../src/apiserver/server-defaults.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { binaryVersion, kubectlFor, type Kubectl } from '../helpers/kubectl.js';

// ---- a tiny protobuf reader, enough to check the document's structure ----

type Field = { field: number; wire: number; value: number | Buffer };

function readFields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): number => {
    let n = 0;
    let mul = 1;
    for (;;) {
      const b = buf[i++]!;
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 128;
    }
  };
  while (i < buf.length) {
    const tag = varint();
    const wire = tag & 7;
    if (wire === 0) out.push({ field: tag >>> 3, wire, value: varint() });
    else if (wire === 2) {
      const len = varint();
      out.push({ field: tag >>> 3, wire, value: buf.subarray(i, i + len) });
      i += len;
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  expect(i).toBe(buf.length);
  return out;
}
const all = (buf: Buffer, field: number): Buffer[] =>
  readFields(buf)
    .filter((f) => f.field === field)
    .map((f) => f.value as Buffer);
const one = (buf: Buffer, ...path: number[]): Buffer => path.reduce((b, f) => all(b, f)[0] ?? Buffer.alloc(0), buf);
const str = (buf: Buffer, ...path: number[]): string => one(buf, ...path).toString('utf8');

describe('GET /openapi/v2 (gnostic openapi_v2.Document)', () => {
  let ts: TestServer;
  beforeAll(async () => (ts = await startTestServer()));
  afterAll(async () => ts?.stop());

  const get = (
    path: string,
    accept = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    extra: Record<string, string> = {},
  ) => fetch(`${ts.server.url}${path}`, { headers: { Accept: accept, ...extra } });

  it('is protobuf with a Content-Type client-go can parse, and carries a PATCH op with fieldValidation per built-in kind', async () => {
    const res = await get('/openapi/v2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(OPENAPI_V2_PROTOBUF);
    expect(res.headers.get('content-type')).not.toContain('@'); // mime.ParseMediaType rejects '@'
    const doc = Buffer.from(await res.arrayBuffer());
    expect(str(doc, 1)).toBe('2.0'); // Document.swagger
    expect(str(doc, 2, 1)).toBe('Kubernetes'); // Info.title
    expect(str(doc, 2, 2)).toBe(`v${KUBERNETES_VERSION}`); // Info.version
    // Document.definitions → Definitions.additional_properties → NamedSchema {name, value: Schema}
    const definitions = new Map(all(one(doc, 9), 1).map((ns) => [str(ns, 1), one(ns, 2)]));
    const deployment = definitions.get('io.k8s.api.apps.v1.Deployment')!;
    expect(deployment).toBeDefined();
    expect(str(deployment, 22, 1)).toBe('object'); // Schema.type → TypeItem.value
    const spec = new Map(all(one(deployment, 25), 1).map((ns) => [str(ns, 1), one(ns, 2)])).get('spec')!; // Schema.properties
    expect(str(spec, 1)).toBe('#/definitions/io.k8s.api.apps.v1.DeploymentSpec'); // Schema._ref
    const gvkExt = all(deployment, 31).map((na) => [str(na, 1), str(na, 2, 2)]); // Schema.vendor_extension
    expect(gvkExt).toContainEqual([
      'x-kubernetes-group-version-kind',
      '[{"group":"apps","kind":"Deployment","version":"v1"}]\n',
    ]);
    const paths = new Map(all(one(doc, 8), 2).map((np) => [str(np, 1), one(np, 2)])); // Paths.path → NamedPathItem
    for (const [path, kind, gvk] of [
      ['/api/v1/namespaces/{name}', 'Namespace', 'group: ""\nkind: Namespace\nversion: v1\n'],
      [
        '/apis/apps/v1/namespaces/{namespace}/deployments/{name}',
        'Deployment',
        'group: apps\nkind: Deployment\nversion: v1\n',
      ],
    ] as const) {
      const op = one(paths.get(path)!, 8); // PathItem.patch
      const ext = new Map(all(op, 13).map((na) => [str(na, 1), str(na, 2, 2)])); // NamedAny → Any.yaml
      expect(ext.get('x-kubernetes-group-version-kind'), kind).toBe(gvk);
      // ParametersItem.parameter → Parameter.non_body_parameter → NonBodyParameter.query_parameter_sub_schema
      const query = all(op, 8).map((p) => one(p, 1, 2, 3));
      expect(query.map((q) => str(q, 4))).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
      expect(query.map((q) => str(q, 2))).toEqual(['query', 'query', 'query', 'query']);
    }
  });

  it('carries each CRD’s schema and PATCH operation, as the v3 document does', async () => {
    const crd = JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'knobs.v2doc.example.com' },
      spec: {
        group: 'v2doc.example.com',
        scope: 'Cluster',
        names: { plural: 'knobs', singular: 'knob', kind: 'Knob' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: { turns: { type: 'integer', nullable: true }, label: { type: 'string' } },
                  },
                },
              },
            },
          },
        ],
      },
    });
    const created = await fetch(`${ts.server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: 'POST',
      body: crd,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(created.status).toBe(201);
    const json = (await (await get('/openapi/v2', 'application/json')).json()) as {
      paths: Record<string, { patch?: { parameters: Array<{ name: string }> } }>;
      definitions: Record<string, { properties: Record<string, { properties?: Record<string, object> }> }>;
    };
    expect(json.paths['/apis/v2doc.example.com/v1/knobs/{name}']!.patch!.parameters.map((p) => p.name)).toContain(
      'fieldValidation',
    );
    const knob = json.definitions[`${'v2doc.example.com'.split('.').reverse().join('.')}.v1.Knob`]!;
    expect(knob.properties.metadata).toEqual(
      expect.objectContaining({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }),
    );
    // v2 has no nullable: the field is published untyped, as kube-apiserver's v2 conversion does.
    expect(knob.properties.spec!.properties).toEqual({ turns: {}, label: { type: 'string' } });
    const pb = Buffer.from(await (await get('/openapi/v2')).arrayBuffer());
    expect(all(one(pb, 9), 1).some((ns) => str(ns, 1) === 'com.example.v2doc.v1.Knob')).toBe(true);
  });

  it('serves the same bytes on /swagger-2.0.0.pb-v1, JSON when only JSON is accepted, and 304 on a matching ETag', async () => {
    const pb = await get('/openapi/v2');
    const body = Buffer.from(await pb.arrayBuffer());
    const legacy = await get('/swagger-2.0.0.pb-v1', 'application/json, */*');
    expect(legacy.headers.get('content-type')).toBe(OPENAPI_V2_PROTOBUF);
    expect(Buffer.from(await legacy.arrayBuffer()).equals(body)).toBe(true);
    const json = await get('/openapi/v2', 'application/json');
    expect(json.headers.get('content-type')).toBe('application/json');
    const doc = (await json.json()) as {
      swagger: string;
      paths: Record<string, { patch: { parameters: Array<{ name: string }> } }>;
    };
    expect(doc.swagger).toBe('2.0');
    expect(doc.paths['/api/v1/namespaces/{name}']!.patch.parameters.map((p) => p.name)).toContain('fieldValidation');
    const etag = pb.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9A-F]+"$/);
    expect((await get('/openapi/v2', undefined, { 'If-None-Match': etag })).status).toBe(304);
  });
});

// ---- kubectl 1.27–1.29: they download /openapi/v2 before every apply/create/replace/edit ----

const SDK = '/usr/lib/google-cloud-sdk/bin';
const BINARIES = ['1.27', '1.28', '1.29'].map((minor) => [minor, join(SDK, `kubectl.${minor}`)] as const);
const present = BINARIES.filter(([minor, path]) => {
  if (existsSync(path)) return true;
  console.log(`openapi-v2: kubectl ${minor} skipped, no binary at ${path}`);
  return false;
});
// "v3 404" leaves kubectl only the v2 document to find the fieldValidation parameter in (QueryParamVerifier,
// including its CRD → Namespace fallback); "v3 served" is the normal server, where v2 must still download.
const MODES = ['v3 served', 'v3 404'] as const;
const CASES = present.flatMap(([minor, binary]) => MODES.map((mode) => [minor, mode, binary] as const));

const GADGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.v2test.example.com
spec:
  group: v2test.example.com
  scope: Namespaced
  names: { plural: gadgets, singular: gadget, kind: Gadget }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer, minimum: 0, maximum: 100 }
                color: { type: string }
`;
const gadget = (spec: object) =>
  JSON.stringify({
    apiVersion: 'v2test.example.com/v1',
    kind: 'Gadget',
    metadata: { name: 'g1', namespace: 'default' },
    spec,
  });
const configMap = (name: string, data: Record<string, string>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });
const deployment = (containers: string[]) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: containers.map((name) => ({ name, image: `${name}:1` })) },
      },
    },
  });

describe.each(CASES)('kubectl %s with default validation, %s', (minor, mode, binary) => {
  let ts: TestServer;
  let kubectl: Kubectl;
  const requests: string[] = [];
  const writes = () => requests.filter((r) => /^(POST|PUT|PATCH) /.test(r));

  beforeAll(async () => {
    expect(binaryVersion(binary)).toContain(`v${minor}.`);
    ts = await startTestServer();
    ts.server.addRoute((req, res, url) => {
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      if (mode === 'v3 404' && url.pathname.startsWith('/openapi/v3')) return notFound(res);
      return false;
    });
    const cache = mkdtempSync(join(tmpdir(), 'kubectl-openapi-v2-'));
    const editor = join(cache, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/edited: before$/edited: after/" "$1"\n');
    chmodSync(editor, 0o755);
    kubectl = kubectlFor(ts.kubeconfig, cache, binary, { KUBE_EDITOR: editor });
  });
  afterAll(async () => ts?.stop());

  it('applies a CRD and a CR; a schema violation is the server’s 422', async () => {
    await kubectl.ok(['apply', '-f', '-'], GADGET_CRD);
    // 1.27 and 1.28 always download v2 (a 404 there is fatal); 1.29 only when v3 is missing.
    if (mode === 'v3 404' || minor !== '1.29')
      expect(requests.some((r) => r.startsWith('GET /openapi/v2?'))).toBe(true);
    requests.length = 0;
    const bad = await kubectl(['apply', '-f', '-'], gadget({ size: 500 }));
    // The CRD's PATCH operation is in the document (v2, or v3 when served), so the verifier finds fieldValidation
    // there, without its fallback of the Namespace operation plus a CRD listing.
    expect(requests).not.toContain('GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('The Gadget "g1" is invalid');
    expect(bad.stderr).toContain('spec.size: Invalid value: 500');
    await kubectl.ok(['apply', '-f', '-'], gadget({ size: 5, color: 'red' }));
    await kubectl.ok(['apply', '-f', '-'], gadget({ size: 6 }));
    const live = JSON.parse(await kubectl.ok(['get', 'gadget', 'g1', '-n', 'default', '-o', 'json'])) as {
      spec: object;
    };
    expect(live.spec).toEqual({ size: 6 });
    // Validation is the server's: every write carries fieldValidation=Strict.
    expect(writes().length).toBeGreaterThanOrEqual(3); // the rejected POST, the create, the patch
    for (const w of writes()) expect(w).toContain('fieldValidation=Strict');
  });

  it('client-side apply of a ConfigMap twice removes the dropped key', async () => {
    await kubectl.ok(['apply', '-f', '-'], configMap('twice', { a: '1', b: '2' }));
    await kubectl.ok(['apply', '-f', '-'], configMap('twice', { a: '1' }));
    expect(JSON.parse(await kubectl.ok(['get', 'cm', 'twice', '-n', 'default', '-o', 'json'])).data).toEqual({
      a: '1',
    });
  });

  it('client-side apply of a Deployment twice sends a strategic merge patch that removes the container', async () => {
    await kubectl.ok(['apply', '-f', '-'], deployment(['app', 'sidecar']));
    const second = await kubectl(['apply', '-f', '-', '-v=8'], deployment(['app']));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(
      /PATCH http\S+\/apis\/apps\/v1\/namespaces\/default\/deployments\/web\?fieldManager=kubectl-client-side-apply&fieldValidation=Strict/,
    );
    expect(second.stderr).toContain('Content-Type: application/strategic-merge-patch+json');
    expect(second.stderr).toContain('"$setElementOrder/containers":[{"name":"app"}]');
    const live = JSON.parse(await kubectl.ok(['get', 'deploy', 'web', '-n', 'default', '-o', 'json']));
    expect(live.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['app']);
  });

  it('apply --server-side, create -f, replace -f and edit', async () => {
    await kubectl.ok(['apply', '--server-side', '-f', '-'], configMap('ssa', { a: '1' }));
    await kubectl.ok(['apply', '--server-side', '-f', '-'], gadget({ size: 9 }).replace('"g1"', '"g2"'));
    expect(JSON.parse(await kubectl.ok(['get', 'gadget', 'g2', '-n', 'default', '-o', 'json'])).spec).toEqual({
      size: 9,
    });
    await kubectl.ok(['create', '-f', '-'], configMap('created', { edited: 'before' }));
    const dup = await kubectl(['create', '-f', '-'], configMap('created', { edited: 'before' }));
    expect(dup.stderr).toContain('already exists');
    await kubectl.ok(['replace', '-f', '-'], configMap('created', { edited: 'before', replaced: 'yes' }));
    await kubectl.ok(['edit', 'cm', 'created', '-n', 'default']);
    expect(JSON.parse(await kubectl.ok(['get', 'cm', 'created', '-n', 'default', '-o', 'json'])).data).toEqual({
      edited: 'after',
      replaced: 'yes',
    });
    const ssa = requests.filter((r) => r.startsWith('PATCH ') && r.includes('fieldManager=kubectl&'));
    expect(ssa).toHaveLength(2);
    for (const w of writes()) expect(w).toContain('fieldValidation=Strict');
  });
});

function notFound(res: ServerResponse): true {
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    code: 404,
  });
  res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
  return true;
}
