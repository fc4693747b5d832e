import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUBERNETES_VERSION } from '../../src/apiserver/server-defaults.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';

type Index = { paths: Record<string, { serverRelativeURL: string }> };
type Doc = {
  info: { version: string };
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ name: string }>; 'x-kubernetes-group-version-kind'?: object }>
  >;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; 'x-kubernetes-group-version-kind'?: object }>;
  };
};

describe('GET /openapi/v3: kube-apiserver’s schemas for the built-ins, the CRDs’ own for theirs', () => {
  let ts: TestServer;
  let kubectl: Kubectl;
  beforeAll(async () => {
    ts = await startTestServer();
    kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-openapi-v3-')));
    await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
  });
  afterAll(async () => ts?.stop());

  const index = async (): Promise<Index> => (await (await fetch(`${ts.server.url}/openapi/v3`)).json()) as Index;
  const doc = async (path: string): Promise<Doc> => {
    const url = (await index()).paths[path]?.serverRelativeURL;
    expect(url, `${path} in /openapi/v3`).toBeDefined();
    return (await (await fetch(`${ts.server.url}${url}`)).json()) as Doc;
  };

  it('lists every served group-version, CRD ones included, each document with its GVK-tagged schemas', async () => {
    const paths = Object.keys((await index()).paths);
    expect(paths).toEqual(expect.arrayContaining(['api/v1', 'apis/apps/v1', 'apis/batch/v1', 'apis/example.com/v1']));
    const apps = await doc('apis/apps/v1');
    expect(apps.info.version).toBe(`v${KUBERNETES_VERSION}`);
    const deployment = apps.components.schemas['io.k8s.api.apps.v1.Deployment']!;
    expect(deployment['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', kind: 'Deployment', version: 'v1' },
    ]);
    expect(apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']).toBeDefined();
    // Only what is served: no watch paths, no subresources the server does not answer (proxy, resize).
    const core = await doc('api/v1');
    expect(
      Object.keys(core.paths).filter((p) => p.includes('/watch/') || p.endsWith('/proxy') || p.endsWith('/resize')),
    ).toEqual([]);
    expect(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/log']).toBeDefined();
    expect(core.paths['/api/v1/componentstatuses/{name}']).toBeDefined();
    expect(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/status']).toBeDefined();
  });

  it('builds a CRD group-version’s document as kube-apiserver does, with its operations', async () => {
    const crd = await doc('apis/example.com/v1');
    const widget = crd.components.schemas['com.example.v1.Widget']!;
    expect(widget['x-kubernetes-group-version-kind']).toEqual([
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
    expect(Object.keys(widget.properties!)).toEqual(
      expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'spec', 'status']),
    );
    expect(crd.components.schemas['com.example.v1.WidgetList']).toBeDefined();
    expect(crd.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toBeDefined();
    const patch = crd.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}']!.patch!;
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'example.com', kind: 'Widget', version: 'v1' });
    expect(patch.parameters!.map((p) => p.name)).toContain('fieldValidation');
    expect(crd.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status']).toBeDefined();
    expect(crd.paths['/apis/example.com/v1/widgets']).toBeDefined(); // the all-namespaces list
  });

  it('kubectl explain: a built-in field, a CRD field, and a kind recursively', async () => {
    const replicas = await kubectl.ok(['explain', 'deployment.spec.replicas']);
    expect(replicas).toContain('GROUP:      apps');
    expect(replicas).toMatch(/FIELD: replicas <integer>/);
    expect(replicas).toContain('Number of desired pods');
    const size = await kubectl.ok(['explain', 'widgets.spec.size']);
    expect(size).toMatch(/KIND:\s+Widget/);
    expect(size).toMatch(/FIELD: size <integer>/);
    const color = await kubectl.ok(['explain', 'widget.spec.color']);
    expect(color).toMatch(/ENUM:\s+red\s+green\s+blue/);
    const pods = await kubectl.ok(['explain', 'pods', '--recursive']);
    expect(pods).toMatch(/\n\s+terminationGracePeriodSeconds\s+<integer>/);
    expect(pods).toMatch(/\n\s+podIP\s+<string>/);
    // The v2 document says the same (kubectl's v2 explainer reads the protobuf definitions).
    expect(await kubectl.ok(['explain', 'deployment.spec.replicas', '--output=plaintext-openapiv2'])).toContain(
      'Number of desired pods',
    );
    expect(await kubectl.ok(['explain', 'widgets.spec.size', '--output=plaintext-openapiv2'])).toMatch(
      /FIELD:\s+size <integer>/,
    );
    const missing = await kubectl(['explain', 'deployment.spec.nosuchfield']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('field "nosuchfield" does not exist');
  });

  it('a CRD change updates its document: a new field is explained, a deleted CRD leaves the index', async () => {
    await kubectl.ok(
      ['apply', '-f', '-'],
      WIDGET_CRD.replace(
        'tags: { type: array, items: { type: string } }',
        'tags: { type: array, items: { type: string } }\n                shape: { type: string, description: the widget’s outline }',
      ),
    );
    await waitFor(
      async () => (await kubectl(['explain', 'widgets.spec.shape'])).stdout.includes('the widget’s outline'),
      { what: 'spec.shape explained', timeoutMs: 30_000 },
    );
    await kubectl.ok(['delete', 'crd', 'widgets.example.com']);
    await waitFor(async () => !('apis/example.com/v1' in (await index()).paths), {
      what: 'example.com/v1 gone from /openapi/v3',
      timeoutMs: 30_000,
    });
    await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
  });

  it('field validation still works: --validate=strict rejects an unknown field, on a built-in and a CRD', async () => {
    const deployment = (extra: object) =>
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'strict', namespace: 'default' },
        spec: {
          selector: { matchLabels: { app: 's' } },
          template: {
            metadata: { labels: { app: 's' } },
            spec: { containers: [{ name: 'c', image: 'c:1', ...extra }] },
          },
        },
      });
    const bad = await kubectl(['apply', '--validate=strict', '-f', '-'], deployment({ imagee: 'typo' }));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('unknown field "spec.template.spec.containers[0].imagee"');
    const badSsa = await kubectl(
      ['apply', '--server-side', '--validate=strict', '-f', '-'],
      deployment({ imagee: 'typo' }),
    );
    expect(badSsa.code).not.toBe(0);
    expect(badSsa.stderr).toContain('imagee');
    await kubectl.ok(['apply', '--validate=strict', '-f', '-'], deployment({}));
    const widget = JSON.stringify({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: { size: 1, sise: 2 },
    });
    const badCr = await kubectl(['apply', '--validate=strict', '-f', '-'], widget);
    expect(badCr.code).not.toBe(0);
    expect(badCr.stderr).toContain('unknown field "spec.sise"');
  });
});
