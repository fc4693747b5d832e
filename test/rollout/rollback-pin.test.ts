import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';
import { attempted, flowSource, sourceStatus } from '../gitops/fixtures.js';
import { generationOf, isReady, listShops, rolloutOf, SHOP_CRD, shopFlow, shops } from './fixtures.js';

// onFailure: rollback of a Flow that came from a FlowSource: the reached objects return to the
// previous generation and the source is pinned to the commit before the change, saying why.

const ROLLBACK = `stages:\n  - count: 1\n  - percent: 100\nprogressDeadline: 2s\nonFailure: rollback\n`;

describe('a rollback of a Flow from Git pins its source', () => {
  let env: FlowOpsEnv;
  let git: GitServer;
  let repo: TestRepo;
  let good = '';
  let bad = '';

  beforeAll(async () => {
    env = await startFlowOps({ sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) } });
    await env.kubectl.ok(['apply', '-f', '-'], SHOP_CRD);
    git = await startGitServer();
    repo = git.repo('shops');
    good = await repo.commit({
      'shop.yaml': shopFlow({ name: 'pin', suite: 'pin', version: 'v1', rollout: ROLLBACK }),
    });
    await env.kube.create(flowSource('shops', repo.url));
    await attempted(env.kube, 'shops', good);
    await env.kubectl.ok(['apply', '-f', '-'], shops('pin', 5));
    await waitFor(
      async () => {
        const objs = await listShops(env.kube, 'pin');
        return objs.length === 5 && objs.every((o) => generationOf(o) === '1' && isReady(o));
      },
      { what: '5 Shops Ready on generation 1', timeoutMs: 60_000 },
    );
  }, 120_000);
  afterAll(async () => {
    await env?.stop();
    await git?.stop();
  });

  it('rolls back, pins the source to the commit before the change, and records why in its history', async () => {
    const never = '{{ eq .Child.data.version "never" }}';
    bad = await repo.commit({
      'shop.yaml': shopFlow({ name: 'pin', suite: 'pin', version: 'v2', readyWhen: never, rollout: ROLLBACK }),
    });
    env.controllers.sources!.trigger('default', 'shops');
    await attempted(env.kube, 'shops', bad);
    const src = await waitFor(
      async () => {
        const s = await env.kube.get({
          apiVersion: 'flowops.io/v1',
          kind: 'FlowSource',
          namespace: 'default',
          name: 'shops',
        });
        return (s?.spec as { ref?: { commit?: string } } | undefined)?.ref?.commit ? s : undefined;
      },
      { what: 'the source pinned', timeoutMs: 20_000 },
    );
    expect((src.spec as { ref: { commit: string; branch?: string } }).ref).toEqual({ branch: 'main', commit: good });
    expect(src.metadata.annotations?.['flowops.io/pinned-by']).toBe('rollout of Flow default/pin');
    expect(src.metadata.annotations?.['flowops.io/pin-reason']).toContain('default/pin-000');
    const status = await waitFor(
      async () => {
        const s = await sourceStatus(env.kube, 'shops');
        return s.history?.[0]?.revision === `main@sha1:${good}` ? s : undefined;
      },
      { what: 'the pinned commit applied again', timeoutMs: 30_000 },
    );
    expect(status.history?.[0]?.message).toContain(
      'pinned by a rollback: rollout of generation 2 of Flow default/pin rolled back',
    );
    // The objects are all on the old spec again (the re-applied commit is a newer generation with it).
    await waitFor(
      async () => {
        const objs = await listShops(env.kube, 'pin');
        const cms = await Promise.all(
          objs.map((o) =>
            env.kube.get({
              apiVersion: 'v1',
              kind: 'ConfigMap',
              namespace: 'default',
              name: `${o.metadata.name ?? ''}-cfg`,
            }),
          ),
        );
        return cms.every((c) => (c as { data?: Record<string, string> } | undefined)?.data?.version === 'v1');
      },
      { what: 'every child rendered by v1', timeoutMs: 30_000 },
    );
    // The halt and rollback were recorded on the Flow; the re-applied commit is a newer generation with the old spec.
    const events = await env.kubectl.ok(['get', 'events', '--field-selector', 'involvedObject.name=pin', '-o', 'json']);
    const items = (
      JSON.parse(events) as { items: Array<{ reason: string; message: string; involvedObject: { kind: string } }> }
    ).items;
    const halted = items.find((e) => e.involvedObject.kind === 'Flow' && e.reason === 'RolloutHalted');
    expect(halted?.message).toContain('default/pin-000: not Ready within 2s');
    // Worded as the source's Events of that commit, so an Alert sends them in the commit's message.
    expect(halted?.message.startsWith(`main@sha1:${bad}: stage 1 of 2 of generation 2 failed`)).toBe(true);
    expect(items.some((e) => e.involvedObject.kind === 'Flow' && e.reason === 'RolloutRolledBack')).toBe(true);
    const done = await waitFor(
      async () => {
        const r = await rolloutOf(env.kube, 'pin');
        return r?.generation === 3 && r.state === 'Complete' ? r : undefined;
      },
      { what: 'generation 3 (the pinned commit) Complete', timeoutMs: 30_000 },
    );
    expect(done.fromGeneration).toBe(1);
    // It repeats generation 1's spec, which ran on every object: no stages again, all at once.
    expect(done.message).toBe(
      'generation 3 repeats the spec of generation 1, which ran on every object: on all of them at once',
    );
    expect(done.stages?.length ?? 0).toBe(0);
    await waitFor(async () => (await listShops(env.kube, 'pin')).every((o) => generationOf(o) === '3'), {
      what: 'every Shop on generation 3',
      timeoutMs: 30_000,
    });
  }, 150_000);
});
