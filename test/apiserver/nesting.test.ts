// Deeply nested bodies on every write path (issue 13): kube-apiserver v1.34.4 accepts 10,000
// levels and refuses 10,001 with a 400 (messages below copied from one); this server handles
// SERVER_MAX_DEPTH levels and refuses deeper with the same 400 saying its own limit. Never a 500,
// never a stack in the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MAX_DEPTH } from '../../src/apiserver/http/nesting.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

let ts: TestServer;
const internalErrors: unknown[] = [];
beforeAll(async () => {
  ts = await startTestServer({ onInternalError: (e) => internalErrors.push(e) });
  // A kind that keeps whatever it is sent, so deep bodies are stored, not pruned.
  const names = { plural: 'things', singular: 'thing', kind: 'Thing' };
  const version = {
    name: 'v1',
    served: true,
    storage: true,
    schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  };
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.deep.example.com' },
    spec: { group: 'deep.example.com', scope: 'Namespaced', names, versions: [version] },
  };
  await call(
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    'application/json',
    JSON.stringify(crd),
  );
  await waitFor(async () => (await call('GET', '/apis/deep.example.com/v1/namespaces/default/things')).status === 200, {
    what: 'the Thing CRD served',
  });
});
afterAll(async () => ts?.stop());

async function call(
  method: string,
  path: string,
  type = 'application/json',
  body?: string,
): Promise<{ status: number; body: any }> {
  const r = await fetch(`${ts.server.url}${path}`, {
    method,
    headers: { 'content-type': type },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: r.status, body: await r.json() };
}

/** A map nested `levels` deep: {"a":{"a":…1…}}. */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

interface Path {
  name: string;
  /** The request for a body nested `depth` levels in all. */
  send(depth: number, n: number): Promise<{ status: number; body: any }>;
  /** What kube-apiserver answers past 10,000 levels. */
  kubeMessage: string;
  /** How deep the stored object nests (a JSON patch's body has one level more than its value). */
  stored?: (depth: number) => number;
}

function pathsFor(kind: 'ConfigMap' | 'Thing'): Path[] {
  const apiVersion = kind === 'ConfigMap' ? 'v1' : 'deep.example.com/v1';
  const collection =
    kind === 'ConfigMap'
      ? '/api/v1/namespaces/default/configmaps'
      : '/apis/deep.example.com/v1/namespaces/default/things';
  const field = kind === 'ConfigMap' ? 'x' : 'spec';
  const object = (name: string, depth: number): string =>
    `{"apiVersion":"${apiVersion}","kind":"${kind}","metadata":{"name":"${name}"},"${field}":${nested(depth - 1)}}`;
  const target = async (name: string): Promise<string> => {
    const r = await call(
      'POST',
      collection,
      'application/json',
      `{"apiVersion":"${apiVersion}","kind":"${kind}","metadata":{"name":"${name}"}}`,
    );
    expect(r.status).toBe(201);
    return `${collection}/${name}`;
  };
  // kube-apiserver quotes the body's first 30 characters.
  const objectMessage = `the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth (${object('x', 1).slice(0, 30)} ...)`;
  const paths: Path[] = [
    {
      name: 'create',
      send: (d, n) => call('POST', collection, 'application/json', object(`c-${n}`, d)),
      kubeMessage: objectMessage,
    },
    {
      name: 'update',
      send: async (d, n) => {
        const url = await target(`u-${n}`);
        const current = (await call('GET', url)).body;
        const body = object(`u-${n}`, d).replace(
          '"metadata":{',
          `"metadata":{"resourceVersion":"${current.metadata.resourceVersion}",`,
        );
        return call('PUT', url, 'application/json', body);
      },
      kubeMessage: objectMessage,
    },
    {
      name: 'merge patch',
      send: async (d, n) =>
        call('PATCH', await target(`m-${n}`), 'application/merge-patch+json', `{"${field}":${nested(d - 1)}}`),
      kubeMessage: "error decoding patch: invalid character '{' exceeded max depth",
    },
    {
      name: 'JSON patch',
      send: async (d, n) =>
        call(
          'PATCH',
          await target(`j-${n}`),
          'application/json-patch+json',
          `[{"op":"add","path":"/${field}","value":${nested(d - 2)}}]`,
        ),
      kubeMessage: "error decoding patch: invalid character '{' exceeded max depth",
      stored: (d) => d - 1,
    },
    {
      name: 'apply',
      send: (d, n) =>
        call('PATCH', `${collection}/a-${n}?fieldManager=deep`, 'application/apply-patch+yaml', object(`a-${n}`, d)),
      kubeMessage: 'error decoding YAML: error converting YAML to JSON: yaml: exceeded max depth of 10000',
    },
  ];
  if (kind === 'ConfigMap') {
    paths.push({
      name: 'strategic merge patch',
      send: async (d, n) =>
        call(
          'PATCH',
          await target(`s-${n}`),
          'application/strategic-merge-patch+json',
          `{"${field}":${nested(d - 1)}}`,
        ),
      kubeMessage: "invalid character '{' exceeded max depth",
    });
  }
  return paths;
}

const DEPTHS = [100, 2000, 10_000, 10_001, 100_000];

describe.each(['ConfigMap', 'Thing'] as const)('bodies nested deep, %s', (kind) => {
  for (const path of pathsFor(kind)) {
    it(`${path.name}: handled up to ${SERVER_MAX_DEPTH} levels, refused past it with a 400`, async () => {
      for (const depth of DEPTHS) {
        const r = await path.send(depth, depth);
        if (depth <= SERVER_MAX_DEPTH) {
          expect(r.status, `${depth}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(300);
          if (kind === 'Thing') {
            // Stored as sent: read back whole, nested as deep.
            const back = await call(
              'GET',
              `/apis/deep.example.com/v1/namespaces/default/things/${r.body.metadata.name}`,
            );
            let v = back.body.spec;
            let levels = 1;
            while (v && typeof v === 'object') {
              v = v.a;
              levels++;
            }
            expect(levels).toBe(path.stored?.(depth) ?? depth);
          }
        } else {
          expect(r.status, `${depth}`).toBe(400);
          expect(r.body.reason).toBe('BadRequest');
          if (depth > 10_000) expect(r.body.message).toBe(path.kubeMessage);
          else
            expect(r.body.message).toContain(
              `of ${SERVER_MAX_DEPTH} levels, the most this server handles (kube-apiserver: 10000)`,
            );
        }
      }
      expect(internalErrors).toEqual([]);
    }, 120_000);
  }
});

describe('YAML bodies nested deep', () => {
  const yaml = (name: string, levels: number): string =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\nx: ${'['.repeat(levels)}${']'.repeat(levels)}\n`;

  it('are refused before the YAML library recurses (which exhausts memory near 10,000 levels)', async () => {
    expect(
      (await call('POST', '/api/v1/namespaces/default/configmaps', 'application/yaml', yaml('y-100', 100))).status,
    ).toBe(201);
    const ours = await call('POST', '/api/v1/namespaces/default/configmaps', 'application/yaml', yaml('y-600', 600));
    expect(ours.status).toBe(400);
    expect(ours.body.message).toBe(
      'error converting YAML to JSON: yaml: exceeded max depth of 500 levels, the most this server handles (kube-apiserver: 10000)',
    );
    for (const levels of [10_001, 100_000]) {
      const r = await call(
        'POST',
        '/api/v1/namespaces/default/configmaps',
        'application/yaml',
        yaml(`y-${levels}`, levels),
      );
      expect(r.status).toBe(400);
      // kube-apiserver: the YAML's first 30 bytes in hex.
      expect(r.body.message).toBe(
        "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (61706956657273696f6e3a2076310a6b696e643a20436f6e6669674d6170 ...)",
      );
      const apply = await call(
        'PATCH',
        `/api/v1/namespaces/default/configmaps/y-${levels}?fieldManager=deep`,
        'application/apply-patch+yaml',
        yaml(`y-${levels}`, levels),
      );
      expect(apply.body.message).toBe(
        'error decoding YAML: error converting YAML to JSON: yaml: exceeded max depth of 10000',
      );
    }
    expect((await fetch(`${ts.server.url}/healthz`)).status).toBe(200);
    expect(internalErrors).toEqual([]);
  });
});
