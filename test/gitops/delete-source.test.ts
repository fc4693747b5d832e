import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import type { FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';
import { attempted, gitopsEnvironment, flowNames, flowSource, flowYaml } from './fixtures.js';

const get = (env: FlowOpsEnv, name: string) =>
  env.kube.get({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', name, namespace: 'default' });

describe('deleting a FlowSource', () => {
  const ctx = gitopsEnvironment();

  it('deletes what it applied (prune, the default) and nothing else, then goes', async () => {
    const env = ctx.env();
    const repo = ctx.git().repo('pruned');
    const sha = await repo.commit({ 'a.yaml': flowYaml('pruned-a'), 'b.yaml': flowYaml('pruned-b') });
    await env.kube.create(flowSource('pruned', repo.url));
    await attempted(env.kube, 'pruned', sha);
    expect((await get(env, 'pruned'))!.metadata.finalizers).toContain('flowops.io/source-cleanup');
    // Made by hand, and one taken over by another source: neither is this source's to delete.
    await env.kube.create({
      ...(parse(flowYaml('pruned-by-hand')) as KubeObject),
      metadata: { name: 'pruned-by-hand', namespace: 'default' },
    });
    await env.kube.patch(
      { apiVersion: 'flowops.io/v1', kind: 'Flow', name: 'pruned-b', namespace: 'default' },
      { metadata: { annotations: { 'flowops.io/source': 'default/other' } } },
      'merge',
    );

    const del = await env.kubectl(['delete', 'flowsource', 'pruned', '--wait=true', '--timeout=30s']);
    expect(del.code, del.stderr).toBe(0);
    expect(await get(env, 'pruned')).toBeUndefined();
    expect((await flowNames(env.kube)).filter((n) => n.startsWith('pruned'))).toEqual(['pruned-b', 'pruned-by-hand']);
    const events = await env.kube.list('v1', 'Event', {
      namespace: 'default',
      fieldSelector: 'involvedObject.name=pruned',
    });
    expect(events.items.map((e) => (e as unknown as { reason: string }).reason)).toContain('Pruned');
  });

  it('with prune: false, leaves the objects in place', async () => {
    const env = ctx.env();
    const repo = ctx.git().repo('kept');
    const sha = await repo.commit({ 'a.yaml': flowYaml('kept-a') });
    await env.kube.create(flowSource('kept', repo.url, { prune: false }));
    await attempted(env.kube, 'kept', sha);
    expect((await get(env, 'kept'))!.metadata.finalizers ?? []).not.toContain('flowops.io/source-cleanup');
    await env.kube.delete({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', name: 'kept', namespace: 'default' });
    await waitFor(async () => (await get(env, 'kept')) === undefined, { what: 'FlowSource kept gone' });
    expect(await flowNames(env.kube)).toContain('kept-a');
  });
});
