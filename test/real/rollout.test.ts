import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import {
  flowOf,
  generationOf,
  isReady,
  listShops,
  markChildrenReady,
  rolloutOf,
  SHOP_CRD,
  shopFlow,
  shopName,
  shops,
  type RolloutView,
} from '../rollout/fixtures.js';
import { refusedRequests } from './audit.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { serviceAccountKubeconfig } from './service-account.js';

// Issue #24 on the real kube-apiserver: FlowOps installed by `kubectl apply -k config/default` and
// running as its ServiceAccount (`flowops run` + two workers) moves a Flow's new generation over
// 20 objects in stages 1, 10%, 50%, 100%, each gated on readiness; a change whose child never
// becomes Ready halts at stage 1 with one object moved, and onFailure: rollback returns it.

const NS = 'flowops-system';
const N = 20;
const STAGES = `stages:
  - count: 1
  - percent: 10
  - percent: 50
  - percent: 100
maxUnavailable: "100%"
`;
const DONE = '{{ eq (index .Child.data "state") "done" }}';
const NEVER = '{{ eq .Child.data.version "never" }}';
const controlPlane = realControlPlane();

describeReal('progressive rollout on the real kube-apiserver', () => {
  let cp: RealControlPlane;
  let kube: KubeClient;
  let flowops: FlowOpsCluster | undefined;
  const logs = (): string => flowops?.logs() ?? '';

  beforeAll(async () => {
    cp = controlPlane();
    await cp.kubectl.ok(['apply', '-k', join(ROOT, 'config/default')]);
    await cp.kubectl.ok(['apply', '-f', '-'], SHOP_CRD);
    await cp.kubectl.ok([
      'wait',
      '--for=condition=Established',
      'crd/shops.rollout.example.com',
      'crd/flows.flowops.io',
      '--timeout=60s',
    ]);
    kube = KubeClient.fromKubeconfig(cp.kubeconfig);
    const kubeconfig = await serviceAccountKubeconfig(cp, NS, 'flowops');
    flowops = await startFlowOps({
      kubeconfig,
      dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
      leaseNamespace: NS,
      leaseName: 'flowops-leader',
    });
  });
  afterAll(async () => {
    await flowops?.stop();
    kube?.rest.close();
  });

  const apply = (yaml: string): Promise<string> => cp.kubectl.ok(['apply', '-f', '-'], yaml);
  const on = (objs: KubeObject[], g: string): string[] =>
    objs.filter((o) => generationOf(o) === g).map((o) => o.metadata.name ?? '');
  const versionOf = async (name: string): Promise<string | undefined> => {
    const cm = await kube.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: `${name}-cfg` });
    return (cm as { data?: Record<string, string> } | undefined)?.data?.version;
  };
  const settledOn = (suite: string, g: string): Promise<KubeObject[]> =>
    waitFor(
      async () => {
        const objs = await listShops(kube, suite);
        return objs.length === N && objs.every((o) => generationOf(o) === g && isReady(o)) ? objs : undefined;
      },
      { what: `${N} ${suite} Shops Ready on generation ${g}\n${logs()}`, timeoutMs: 60_000, intervalMs: 250 },
    );
  const rolloutIn = (flow: string, g: number, state: string): Promise<RolloutView> =>
    waitFor(
      async () => {
        const r = await rolloutOf(kube, flow);
        return r?.generation === g && r.state === state ? r : undefined;
      },
      { what: `rollout of generation ${g} of ${flow} ${state}\n${logs()}`, timeoutMs: 60_000, intervalMs: 250 },
    );

  it('moves a good change over all 20 objects in stage order, each stage waiting for readiness', async () => {
    await apply(shopFlow({ name: 'good', suite: 'good', version: 'v1', rollout: STAGES }));
    await apply(shops('good', N));
    await settledOn('good', '1');
    await apply(shopFlow({ name: 'good', suite: 'good', version: 'v2', readyWhen: DONE, rollout: STAGES }));
    let marked = 0;
    for (const [stage, total] of [
      [0, 1],
      [1, 2],
      [2, 10],
      [3, 20],
    ] as const) {
      // The stage's objects ran generation 2 and wait for readiness; nothing beyond the stage moved.
      const objs = await waitFor(
        async () => {
          const r = await rolloutOf(kube, 'good');
          const all = await listShops(kube, 'good');
          const waiting = all.filter((o) => generationOf(o) === '2' && !isReady(o)).length === total - marked;
          return r?.generation === 2 && r.currentStage === stage && on(all, '2').length === total && waiting
            ? all
            : undefined;
        },
        { what: `stage ${stage + 1}: ${total} on generation 2, not Ready\n${logs()}`, timeoutMs: 60_000 },
      );
      expect(on(objs, '2').sort()).toEqual(Array.from({ length: total }, (_, i) => shopName('good', i)));
      expect(await versionOf(shopName('good', total - 1))).toBe('v2');
      if (total < N) expect(await versionOf(shopName('good', total))).toBe('v1');
      await markChildrenReady(
        kube,
        Array.from({ length: total - marked }, (_, i) => shopName('good', marked + i)),
      );
      marked = total;
    }
    const done = await rolloutIn('good', 2, 'Complete');
    expect(done.stages?.map((s) => s.state)).toEqual(['Passed', 'Passed', 'Passed', 'Passed']);
    expect(done.stages?.map((s) => s.target)).toEqual([1, 2, 10, 20]);
    await settledOn('good', '2');
    const events = JSON.parse(
      await cp.kubectl.ok([
        'get',
        'events',
        '-n',
        'default',
        '--field-selector',
        'involvedObject.name=good',
        '-o',
        'json',
      ]),
    ) as { items: Array<{ reason: string }> };
    expect(events.items.map((e) => e.reason)).toEqual(
      expect.arrayContaining(['RolloutStageStarted', 'RolloutStagePassed', 'RolloutComplete']),
    );
  });

  it('halts a change whose child never becomes Ready at stage 1, with exactly one object moved', async () => {
    const halt = `${STAGES}progressDeadline: 3s\n`;
    await apply(shopFlow({ name: 'bad', suite: 'bad', version: 'v1', rollout: halt }));
    await apply(shops('bad', N));
    await settledOn('bad', '1');
    await apply(shopFlow({ name: 'bad', suite: 'bad', version: 'v2', readyWhen: NEVER, rollout: halt }));
    const r = await rolloutIn('bad', 2, 'Halted');
    expect(r.currentStage).toBe(0);
    expect(r.failed).toEqual([{ object: 'default/bad-000', reason: expect.stringContaining('not Ready within 3s') }]);
    const all = await listShops(kube, 'bad');
    expect(on(all, '2')).toEqual(['bad-000']);
    expect(on(all, '1')).toHaveLength(N - 1);
    expect(await versionOf('bad-001')).toBe('v1');
    const ready = (
      ((await flowOf(kube, 'bad'))?.status as { conditions?: Array<{ type: string; status: string; reason?: string }> })
        .conditions ?? []
    ).find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'RolloutHalted' });
  });

  it('with onFailure: rollback returns the reached object to the previous generation', async () => {
    const back = `${STAGES}progressDeadline: 3s\nonFailure: rollback\n`;
    await apply(shopFlow({ name: 'back', suite: 'back', version: 'v1', rollout: back }));
    await apply(shops('back', N));
    await settledOn('back', '1');
    await apply(shopFlow({ name: 'back', suite: 'back', version: 'v2', readyWhen: NEVER, rollout: back }));
    const r = await rolloutIn('back', 2, 'RolledBack');
    expect(r.failed?.map((f) => f.object)).toEqual(['default/back-000']);
    // Returned: run again by generation 1, its child rendered by generation 1's spec.
    await settledOn('back', '1');
    expect(await versionOf('back-000')).toBe('v1');
    const events = JSON.parse(
      await cp.kubectl.ok([
        'get',
        'events',
        '-n',
        'default',
        '--field-selector',
        'involvedObject.name=back,reason=RolloutRolledBack',
        '-o',
        'json',
      ]),
    ) as { items: unknown[] };
    expect(events.items.length).toBeGreaterThan(0);
  });

  it('needed no right the install does not grant (ControllerRevisions, Events, status)', () => {
    expect(refusedRequests(cp, `system:serviceaccount:${NS}:flowops`)).toEqual([]);
  });
});
