// Progressive rollout benchmark (issue #24): prints figures, asserts nothing.
//   npx tsx bench/rollout.ts [--objects 1000]
// One embedded API server and `flowops up` in this process. The same change of a Flow (its child
// ConfigMap's data) is made twice in one run: once without spec.rollout (the baseline: every object
// moves at once) and once with four stages (1, 10%, 50%, 100%). The children are Ready as soon as
// they are applied, so a stage's time is FlowOps' own: moving the objects, running them, judging
// the stage. Per stage it prints the stage's wall time and its share of the baseline for as many
// objects; the difference is what the rollout adds per stage.
// Outside the rollout: another Flow ("outside", --outside objects, default half of --objects) that
// never rolls. After the timed changes above, each of the two Flows is changed once more (to v3)
// and the outside Flow with it: beside the baseline's all-at-once change, and, once stage 1 of the
// rollout has started, beside the rollout. Its reconcile rate (objects run by its new generation
// per second) is printed for both, and for a change of it alone, all in the same run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startApiServer } from '../src/apiserver/index.js';
import { KubeClient } from '../src/kube/client.js';
import { writeKubeconfig } from '../src/kube/kubeconfig.js';
import type { KubeObject } from '../src/kube/types.js';
import { startControllers } from '../src/runtime/controllers.js';
import { SHOP_CRD, shopFlow, shops } from '../test/rollout/fixtures.js';
import { parse } from 'yaml';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('objects', 1000);
const M = arg('outside', Math.ceil(N / 2));
const STAGES = 'stages:\n  - count: 1\n  - percent: 10\n  - percent: 50\n  - percent: 100\nmaxUnavailable: "100%"\n';

interface Stage {
  target: number;
  startedAt?: string;
  passedAt?: string;
}

async function applyYaml(kube: KubeClient, text: string): Promise<void> {
  for (const doc of text.split(/^---$/m)) {
    const obj = parse(doc) as KubeObject | null;
    if (obj) await kube.apply(obj, { fieldManager: 'bench', force: true });
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30 * 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const onGeneration = (o: KubeObject, g: number): boolean =>
  o.metadata.annotations?.['flowops.io/flow-generation'] === String(g) &&
  ((o.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );

async function allOn(kube: KubeClient, suite: string, g: number, n = N): Promise<true | undefined> {
  const items = (
    await kube.list('rollout.example.com/v1', 'Shop', { namespace: 'default', labelSelector: `suite=${suite}` })
  ).items;
  return items.length === n && items.every((o) => onGeneration(o, g)) ? true : undefined;
}

/** Changes the outside Flow to generation g and resolves with its reconcile rate (objects/s) until all ran it. */
async function outsideRate(kube: KubeClient, g: number): Promise<{ rate: number; secs: number }> {
  const t0 = performance.now();
  await applyYaml(kube, shopFlow({ name: 'outside', suite: 'outside', version: `v${g}` }));
  await until(`outside: ${M} objects on generation ${g}`, () => allOn(kube, 'outside', g, M));
  const secs = (performance.now() - t0) / 1000;
  return { rate: M / secs, secs };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rollout-'));
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  const kube = KubeClient.fromKubeconfig(kubeconfig);
  const controllers = await startControllers({ kube, log: pino({ level: 'silent' }), installCrds: true });
  try {
    await applyYaml(kube, SHOP_CRD);
    await until(
      'the Shop kind served',
      async () => (await kube.list('rollout.example.com/v1', 'Shop').catch(() => undefined)) && true,
    );
    await applyYaml(kube, shopFlow({ name: 'outside', suite: 'outside', version: 'v1' }));
    await applyYaml(kube, shops('outside', M));
    await until(`outside: ${M} objects on generation 1`, () => allOn(kube, 'outside', 1, M));
    const outside: Record<string, { rate: number; secs: number }> = { alone: await outsideRate(kube, 2) };
    const times: Record<string, number> = {};
    for (const suite of ['baseline', 'staged']) {
      const rollout = suite === 'staged' ? STAGES : undefined;
      await applyYaml(kube, shopFlow({ name: suite, suite, version: 'v1', ...(rollout ? { rollout } : {}) }));
      await applyYaml(kube, shops(suite, N));
      await until(`${suite}: ${N} objects on generation 1`, () => allOn(kube, suite, 1));
      const t0 = performance.now();
      await applyYaml(kube, shopFlow({ name: suite, suite, version: 'v2', ...(rollout ? { rollout } : {}) }));
      await until(`${suite}: ${N} objects on generation 2`, () => allOn(kube, suite, 2));
      if (rollout) {
        await until('rollout Complete', async () => {
          const f = await kube.get({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: suite });
          return (f?.status as { rollout?: { state?: string } } | undefined)?.rollout?.state === 'Complete'
            ? true
            : undefined;
        });
      }
      times[suite] = (performance.now() - t0) / 1000;
    }
    const stagedFlow = await kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'Flow',
      namespace: 'default',
      name: 'staged',
    });
    const stages = ((stagedFlow?.status as { rollout?: { stages?: Stage[] } } | undefined)?.rollout?.stages ??
      []) as Stage[];
    for (const [suite, g] of [
      ['baseline', 3],
      ['staged', 4],
    ] as const) {
      const rollout = suite === 'staged' ? STAGES : undefined;
      await applyYaml(kube, shopFlow({ name: suite, suite, version: 'v3', ...(rollout ? { rollout } : {}) }));
      if (rollout) {
        await until('the rollout of v3 in stage 1', async () => {
          const f = await kube.get({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: suite });
          const r = (f?.status as { rollout?: { state?: string; generation?: number } } | undefined)?.rollout;
          return r?.generation === 3 && r.state === 'Progressing' ? true : undefined;
        });
      }
      outside[suite] = await outsideRate(kube, g);
      await until(`${suite}: ${N} objects on generation 3`, () => allOn(kube, suite, 3));
    }
    const baseline = times.baseline ?? 0;
    const perObject = baseline / N;
    console.log(`objects: ${N}`);
    const each = `${(perObject * 1000).toFixed(2)} ms per object`;
    console.log(`baseline (no spec.rollout, all at once): ${baseline.toFixed(2)} s (${each})`);
    console.log(`rollout (4 stages), change to all Complete: ${(times.staged ?? 0).toFixed(2)} s`);
    let before = 0;
    for (const [i, s] of stages.entries()) {
      const secs = s.startedAt && s.passedAt ? (Date.parse(s.passedAt) - Date.parse(s.startedAt)) / 1000 : NaN;
      const moved = s.target - before;
      before = s.target;
      const share = moved * perObject;
      const extra = secs - share;
      console.log(
        `stage ${i + 1}: ${moved} objects moved, ${secs.toFixed(2)} s; baseline for ${moved}: ${share.toFixed(2)} s; ` +
          `added by the rollout: ${extra.toFixed(2)} s`,
      );
    }
    const rate = (k: string): string => {
      const o = outside[k];
      return o ? `${o.rate.toFixed(0)} objects/s (${M} in ${o.secs.toFixed(2)} s)` : 'n/a';
    };
    console.log(`outside Flow (not rolling, ${M} objects changed), reconcile rate:`);
    console.log(`  alone: ${rate('alone')}`);
    console.log(`  beside the all-at-once change (baseline): ${rate('baseline')}`);
    console.log(`  beside the rollout: ${rate('staged')}`);
    const ratio = (outside.staged?.rate ?? NaN) / (outside.alone?.rate ?? NaN);
    console.log(`  beside the rollout / alone: ${ratio.toFixed(2)}x`);
  } finally {
    await controllers.stop();
    await server.close();
  }
}

await main();
