import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';
import { attempted, flowNames, flowSource, flowYaml } from './fixtures.js';

const get = (env: FlowOpsEnv, name: string) => env.kube.get({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', name, namespace: 'default' });

describe('deleting a FlowSource', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;

  beforeAll(async () => {
    env = await startFlowOps({ sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) } });
    gitServer = await startGitServer();
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
  });

  it('deletes what it applied (prune, the default) and nothing else, then goes', async () => {
    const repo = gitServer.repo('pruned');
    const sha = await repo.commit({ 'a.yaml': flowYaml('pruned-a'), 'b.yaml': flowYaml('pruned-b') });
    await env.kube.create(flowSource('pruned', repo.url));
    await attempted(env.kube, 'pruned', sha);
    expect((await get(env, 'pruned'))!.metadata.finalizers).toContain('flowops.io/source-cleanup');
    // Made by hand, and one taken over by another source: neither is this source's to delete.
    await env.kube.create({ ...(parse(flowYaml('pruned-by-hand')) as KubeObject), metadata: { name: 'pruned-by-hand', namespace: 'default' } });
    await env.kube.patch({ apiVersion: 'flowops.io/v1', kind: 'Flow', name: 'pruned-b', namespace: 'default' }, { metadata: { annotations: { 'flowops.io/source': 'default/other' } } }, 'merge');

    const del = await env.kubectl(['delete', 'flowsource', 'pruned', '--wait=true', '--timeout=30s']);
    expect(del.code, del.stderr).toBe(0);
    expect(await get(env, 'pruned')).toBeUndefined();
    expect((await flowNames(env.kube)).filter((n) => n.startsWith('pruned'))).toEqual(['pruned-b', 'pruned-by-hand']);
    const events = await env.kube.list('v1', 'Event', { namespace: 'default', fieldSelector: 'involvedObject.name=pruned' });
    expect(events.items.map((e) => (e as unknown as { reason: string }).reason)).toContain('Pruned');
  });

  it('with prune: false, leaves the objects in place', async () => {
    const repo = gitServer.repo('kept');
    const sha = await repo.commit({ 'a.yaml': flowYaml('kept-a') });
    await env.kube.create(flowSource('kept', repo.url, { prune: false }));
    await attempted(env.kube, 'kept', sha);
    expect((await get(env, 'kept'))!.metadata.finalizers ?? []).not.toContain('flowops.io/source-cleanup');
    await env.kube.delete({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', name: 'kept', namespace: 'default' });
    await waitFor(async () => (await get(env, 'kept')) === undefined, { what: 'FlowSource kept gone' });
    expect(await flowNames(env.kube)).toContain('kept-a');
  });
});
