import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import type { FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';
import { attempted, gitopsEnvironment, flowSource, flowYaml } from './fixtures.js';

const flow = (env: FlowOpsEnv, name: string): Promise<KubeObject | undefined> =>
  env.kube.get({ apiVersion: 'flowops.io/v1', kind: 'Flow', name, namespace: 'default' });

describe('drift: nothing new in Git, the last applied commit is applied again', () => {
  const ctx = gitopsEnvironment();

  it('reverts a hand edit of a field the source manages on the next poll, and leaves unchanged objects alone', async () => {
    const env = ctx.env();
    const repo = ctx.git().repo('drift');
    const sha = await repo.commit({ 'a.yaml': flowYaml('drift-a'), 'b.yaml': flowYaml('drift-b') });
    await env.kube.create(flowSource('drift', repo.url));
    await attempted(env.kube, 'drift', sha);
    const wanted = JSON.stringify((await flow(env, 'drift-a'))!.spec);
    const untouched = (await flow(env, 'drift-b'))!.metadata.generation;

    // A field Git sets, changed by hand (server-side apply leaves fields Git does not set to whoever set them).
    const edit = await env.kubectl([
      'patch',
      'flow',
      'drift-a',
      '--type=merge',
      '-p',
      '{"spec":{"watch":{"kind":"Gadget"}}}',
    ]);
    expect(edit.code, edit.stderr).toBe(0);
    expect((await flow(env, 'drift-a'))!.spec).toMatchObject({ watch: { kind: 'Gadget' } });

    env.controllers.sources!.trigger('default', 'drift');
    await waitFor(async () => JSON.stringify((await flow(env, 'drift-a'))!.spec) === wanted, {
      what: 'the hand edit reverted',
      timeoutMs: 20_000,
    });
    // The same commit again: no new history entry, and an object nobody touched kept its spec generation.
    const status = (await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      name: 'drift',
      namespace: 'default',
    }))!.status as { history: unknown[] };
    expect(status.history).toHaveLength(1);
    expect((await flow(env, 'drift-b'))!.metadata.generation).toBe(untouched);
  });
});
