import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { attempted, flowSource, flowYaml, ready } from './fixtures.js';

const configMap = (name: string, value: string, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', ...meta },
  data: { value },
});
const yaml = (o: KubeObject): string => JSON.stringify(o);

describe('side by side with Argo CD and Flux', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  const get = (kind: string, name: string) =>
    env.kube.get({ apiVersion: kind === 'Flow' ? 'flowops.io/v1' : 'v1', kind, name, namespace: 'default' });

  beforeAll(async () => {
    env = await startFlowOps({ sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) } });
    gitServer = await startGitServer();
    repo = gitServer.repo('shared');
    // Objects another tool applied before FlowOps saw the repository.
    await env.kube.create({
      ...(parse(flowYaml('argo-flow', 'argo')) as KubeObject),
      metadata: {
        name: 'argo-flow',
        namespace: 'default',
        annotations: { 'argocd.argoproj.io/tracking-id': 'shop:flowops.io/Flow:default/argo-flow' },
      },
    });
    await env.kube.create(
      configMap('flux-cm', 'flux', {
        labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
      }),
    );
    await env.kube.create(configMap('helm-cm', 'helm', { labels: { 'helm.toolkit.fluxcd.io/name': 'web' } }));
    await env.kube.create(
      configMap('adopt-cm', 'argo', {
        annotations: {
          'argocd.argoproj.io/tracking-id': 'shop:/ConfigMap:default/adopt-cm',
          'flowops.io/adopt': 'true',
        },
      }),
    );
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
  });

  it('leaves tracked objects alone, reports them, and adopts an object annotated flowops.io/adopt', async () => {
    const sha = await repo.commit({
      'argo-flow.yaml': flowYaml('argo-flow', 'git'),
      'cms.yaml': [
        configMap('flux-cm', 'git'),
        configMap('helm-cm', 'git'),
        configMap('adopt-cm', 'git'),
        configMap('mine', 'git'),
      ]
        .map(yaml)
        .join('\n---\n'),
    });
    await env.kube.create(flowSource('shared', repo.url));
    const s = await attempted(env.kube, 'shared', sha);
    expect(ready(s)).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(ready(s)!.message).toContain('3 skipped');
    expect(JSON.stringify((await get('Flow', 'argo-flow'))!.spec)).toContain('-argo');
    expect((await get('ConfigMap', 'flux-cm'))!.data).toEqual({ value: 'flux' });
    expect((await get('ConfigMap', 'helm-cm'))!.data).toEqual({ value: 'helm' });
    const adopted = await get('ConfigMap', 'adopt-cm');
    expect(adopted!.data).toEqual({ value: 'git' });
    expect(adopted!.metadata.annotations!['flowops.io/source']).toBe('default/shared');
    expect(s.skipped!.map((k) => `${k.kind}/${k.name}: ${k.reason}`).sort()).toEqual([
      'ConfigMap/flux-cm: tracked by Flux Kustomization flux-system/apps; annotate it flowops.io/adopt: "true" to let FlowOps manage it',
      'ConfigMap/helm-cm: tracked by Flux HelmRelease web; annotate it flowops.io/adopt: "true" to let FlowOps manage it',
      'Flow/argo-flow: tracked by Argo CD (tracking-id shop:flowops.io/Flow:default/argo-flow); annotate it flowops.io/adopt: "true" to let FlowOps manage it',
    ]);
    expect(s.inventory!.map((e) => e.name).sort()).toEqual(['adopt-cm', 'mine']);
  });

  it('prunes only its own inventory when the definitions go', async () => {
    const sha = await repo.commit({ 'argo-flow.yaml': null, 'cms.yaml': null });
    env.controllers.sources!.trigger('default', 'shared');
    const s = await attempted(env.kube, 'shared', sha);
    expect(s.inventory).toEqual([]);
    expect(await get('Flow', 'argo-flow')).toBeDefined();
    expect(await get('ConfigMap', 'flux-cm')).toBeDefined();
    expect(await get('ConfigMap', 'helm-cm')).toBeDefined();
    expect(await get('ConfigMap', 'mine')).toBeUndefined();
    expect(await get('ConfigMap', 'adopt-cm')).toBeUndefined();
  });
});
