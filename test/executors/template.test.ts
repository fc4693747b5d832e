// template executor: the real helm 4 and kubectl kustomize, objects applied to the embedded server.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateStepSchema, type TemplateStep } from '../../src/api/flow.js';
import { templateExecutor } from '../../src/executors/template.js';
import { FLOW_LABEL } from '../../src/executors/types.js';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { failure, makeContext } from './context.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

let ts: TestServer;
let kube: KubeClient;
let owner: KubeObject;

const step = (s: Record<string, unknown>): TemplateStep =>
  templateStepSchema.parse({ name: 'render', type: 'template', ...s });
const run = (s: Record<string, unknown>, extra: Partial<Parameters<typeof makeContext>[0]> = {}) =>
  templateExecutor.run(step(s), makeContext({ kube, resource: owner, sourceDir: FIXTURES, ...extra }));
const get = (kind: string, name: string, namespace = 'team-a') => kube.get({ apiVersion: 'v1', kind, name, namespace });

beforeAll(async () => {
  ts = await startTestServer();
  kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  owner = await kube.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'shop', namespace: 'team-a' },
    data: { replicas: '3', greeting: 'hi\nevil: true' },
  });
});
afterAll(async () => ts?.stop());

function expectOwned(obj: KubeObject | undefined): void {
  expect(obj?.metadata.labels?.[FLOW_LABEL]).toBe('test-flow');
  expect(obj?.metadata.ownerReferences).toEqual([
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'shop',
      uid: owner.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ]);
}

describe('template: helm', () => {
  it('renders a chart with templated values (object form) and applies every object', async () => {
    const { outputs } = await run({
      engine: 'helm',
      chart: './chart',
      values: { replicas: '{{ .Resource.data.replicas }}', greeting: '{{ .Resource.data.greeting }}' },
    });
    expect(outputs.applied).toEqual(['ConfigMap/team-a/shop-config', 'Service/team-a/shop']);
    const cm = await get('ConfigMap', 'shop-config');
    // The release name defaults to the resource's name; a value with a newline stays one value.
    expect(cm?.data).toEqual({ replicas: '3', greeting: 'hi\nevil: true', namespace: 'team-a' });
    expectOwned(cm);
    expectOwned(await get('Service', 'shop'));
  });

  it('takes values as a templated YAML string, a release name and a namespace', async () => {
    await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    const { outputs } = await run({
      engine: 'helm',
      chart: join(FIXTURES, 'chart'),
      releaseName: '{{ .Resource.metadata.name }}-two',
      namespace: 'team-b',
      ownerReference: false,
      values: 'replicas: {{ .Resource.data.replicas }}\ngreeting: {{ .Resource.data.greeting }}\n',
    });
    expect(outputs.applied).toEqual(['ConfigMap/team-b/shop-two-config', 'Service/team-b/shop-two']);
    const cm = await get('ConfigMap', 'shop-two-config', 'team-b');
    expect(cm?.data).toEqual({ replicas: '3', greeting: 'hi\nevil: true', namespace: 'team-b' });
    expect(cm?.metadata.ownerReferences).toBeUndefined();
  });

  it('a missing helm binary is a permanent error that says how to install it', async () => {
    const saved = process.env.FLOWOPS_HELM;
    process.env.FLOWOPS_HELM = '/nonexistent/helm';
    try {
      const err = await failure(() => run({ engine: 'helm', chart: './chart' }));
      expect(err).toMatchObject({ reason: 'ToolNotFound', permanent: true });
      expect(err.message).toContain(
        'install helm 4 (https://helm.sh/docs/intro/install/) or run npm ci, which unpacks it into .tools/bin',
      );
      expect(err.message).toContain('/nonexistent/helm');
    } finally {
      if (saved === undefined) delete process.env.FLOWOPS_HELM;
      else process.env.FLOWOPS_HELM = saved;
    }
  });

  it('a failing helm carries its stderr', async () => {
    const err = await failure(() => run({ engine: 'helm', chart: './kustomize' }));
    expect(err).toMatchObject({ reason: 'TemplateEngineFailed', exitCode: 1 });
    expect(err.message).toMatch(/Chart\.yaml/);
  });

  it('a chart path built from values cannot leave the source folder', async () => {
    const resource = { ...owner, data: { chart: '../../../etc' } };
    const err = await failure(() => run({ engine: 'helm', chart: './{{ .Resource.data.chart }}' }, { resource }));
    expect(err).toMatchObject({ reason: 'InvalidPath', permanent: true });
  });
});

describe('template: kustomize', () => {
  it('builds with kubectl kustomize when kustomize is not on PATH, and applies with owner and label', async () => {
    const { outputs } = await run({ engine: 'kustomize', path: 'kustomize' });
    expect(outputs).toMatchObject({
      applied: ['ConfigMap/team-a/kz-settings'],
      name: 'kz-settings',
      namespace: 'team-a',
    });
    const cm = await get('ConfigMap', 'kz-settings');
    expect(cm?.data).toEqual({ mode: 'production' });
    expect(cm?.metadata.labels?.app).toBe('kustomized');
    expectOwned(cm);
  });

  it('a missing path is a permanent error', async () => {
    await expect(run({ engine: 'kustomize', path: 'no-such-dir' })).rejects.toMatchObject({
      reason: 'PathNotFound',
      permanent: true,
    });
  });
});
