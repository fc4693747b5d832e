import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { flowCrd } from '../../src/api/crd.js';
import type { KubeObject } from '../../src/kube/types.js';
import { shardOf } from '../../src/runtime/shards/index.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { waitFor } from '../helpers/wait.js';
import { apiServerFixture, metricsAddressOf, spawnFlowops, stopGracefully, type Proc } from './processes.js';

// Short timings keep the test fast; the ratios are client-go's (renew < lease, retry ≪ renew).
const LEASE_MS = 3000;
const LEASE = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];

const cluster = apiServerFixture(async (kube) => {
  await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: 'test', force: true });
  await kube.apply(parse(WIDGET_CRD) as KubeObject, { fieldManager: 'test', force: true });
  await waitFor(
    async () =>
      kube.list('example.com/v1', 'Widget').then(
        () => true,
        () => false,
      ),
    { what: 'Widget served' },
  );
});

/** Each run appends "start|end <name> <size> <ms> <bash pid>" to the log: the per-object counter. */
function flow(ns: string, log: string): KubeObject {
  return {
    apiVersion: 'flowops.io/v1',
    kind: 'Flow',
    metadata: { name: 'count', namespace: ns },
    spec: {
      watch: { apiVersion: 'example.com/v1', kind: 'Widget', namespace: ns },
      reconcile: {
        steps: [
          {
            name: 'count',
            type: 'script',
            env: { NAME: '{{ .Resource.metadata.name }}', SIZE: '{{ .Resource.spec.size }}', LOG: log },
            script: [
              'echo "start $NAME $SIZE $(date +%s%3N) $$" >> "$LOG"',
              'sleep 0.1',
              'echo "end $NAME $SIZE $(date +%s%3N) $$" >> "$LOG"',
              '',
            ].join('\n'),
          },
        ],
      },
    },
  } as unknown as KubeObject;
}

const widget = (ns: string, name: string, size: number): KubeObject =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: ns },
    spec: { size },
  }) as unknown as KubeObject;

interface Run {
  name: string;
  size: number;
  start: number;
  end?: number;
}

function runsOf(file: string): Run[] {
  if (!existsSync(file)) return [];
  const runs = new Map<string, Run>();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [what, name, size, ms, pid] = line.split(' ');
    if (!what || !name || !size || !ms || !pid) continue;
    if (what === 'start') runs.set(pid, { name, size: Number(size), start: Number(ms) });
    else {
      const r = runs.get(pid);
      if (r) r.end = Number(ms);
    }
  }
  return [...runs.values()];
}

/** No two runs of one object overlap, whichever replica enqueued them. */
function overlaps(runs: Run[]): string[] {
  const found: string[] = [];
  const byName = new Map<string, Run[]>();
  for (const r of runs) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  for (const [name, rs] of byName) {
    rs.sort((a, b) => a.start - b.start);
    for (let i = 1; i < rs.length; i++) {
      const prev = rs[i - 1];
      const cur = rs[i];
      if (prev && cur && (prev.end === undefined || cur.start < prev.end)) found.push(`${name} at ${cur.start}`);
    }
  }
  return found;
}

interface Replica {
  proc: Proc;
  metrics: string;
}

/** flowops_shard_held{shard="i"} 1 lines of a replica's /metrics (undefined when it does not answer). */
async function heldBy(r: Replica): Promise<number[] | undefined> {
  try {
    const text = await (await fetch(`${r.metrics}/metrics`, { signal: AbortSignal.timeout(1000) })).text();
    return [...text.matchAll(/^flowops_shard_held\{shard="(\d+)"\} 1$/gm)].map((m) => Number(m[1]));
  } catch {
    return undefined;
  }
}

interface Setup {
  ns: string;
  log: string;
  group: string;
  replicas: Replica[];
  /** Run while the test runs: every 50 ms, any shard reported held by two replicas at once. */
  sharedSamples: string[];
  stopSampling(): Promise<void>;
}

async function start(replicaCount: number, shards: number): Promise<Setup> {
  // A namespace per test: each test's Flow and Widgets, apart from the others'.
  const ns = `sh-${randomUUID().slice(0, 8)}`;
  await cluster.kube().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } as KubeObject);
  const dir = mkdtempSync(join(tmpdir(), 'flowops-shards-'));
  const log = join(dir, 'runs.log');
  const queue = `shards-${randomUUID()}`;
  const group = `sh-${randomUUID().slice(0, 8)}`;
  const common = ['--kubeconfig', cluster.kubeconfig(), '--metrics-listen', '127.0.0.1:0', '--queue', queue];
  const worker = cluster.track(
    spawnFlowops('worker', ['worker', ...common, '--concurrency', '8', '--script-isolation', 'none'], {
      FLOWOPS_LOG_LEVEL: 'info',
    }),
  );
  const procs = Array.from({ length: replicaCount }, (_, i) =>
    cluster.track(
      spawnFlowops(
        `run-${i}`,
        [
          'run',
          ...common,
          '--no-ui',
          '--lease-namespace',
          ns,
          '--lease-name',
          group,
          '--shards',
          String(shards),
          ...LEASE,
        ],
        { FLOWOPS_LOG_LEVEL: 'info' },
      ),
    ),
  );
  const replicas = await Promise.all(procs.map(async (proc) => ({ proc, metrics: await metricsAddressOf(proc) })));
  await metricsAddressOf(worker);
  const sharedSamples: string[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const held = await Promise.all(replicas.map(heldBy));
      const seen = new Map<number, number>();
      for (const [r, hs] of held.entries()) {
        for (const s of hs ?? []) {
          const other = seen.get(s);
          if (other !== undefined) sharedSamples.push(`shard ${s} on replicas ${other} and ${r}`);
          seen.set(s, r);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    ns,
    log,
    group,
    replicas,
    sharedSamples,
    stopSampling: async () => {
      sampling = false;
      await sampler;
    },
  };
}

/** Waits until the replicas (by index) hold these many shards each, every shard once. */
async function waitForSplit(live: Replica[], shards: number, what: string, timeoutMs = 30_000): Promise<number[][]> {
  return waitFor(
    async () => {
      const held = await Promise.all(live.map(heldBy));
      const all = held.flatMap((h) => h ?? []);
      const quota = Math.ceil(shards / live.length);
      const ok =
        held.every((h) => h !== undefined && h.length >= 1 && h.length <= quota) &&
        new Set(all).size === shards &&
        all.length === shards;
      return ok ? held.map((h) => h ?? []) : undefined;
    },
    { what, timeoutMs },
  );
}

async function leaseHolder(
  ns: string,
  group: string,
  shard: number,
): Promise<{ holder: string | undefined; transitions: number }> {
  const lease = await cluster.kube().get({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    namespace: ns,
    name: `${group}-shard-${shard}`,
  });
  const spec = lease?.spec as { holderIdentity?: string; leaseTransitions?: number } | undefined;
  return { holder: spec?.holderIdentity || undefined, transitions: spec?.leaseTransitions ?? 0 };
}

/** Every widget has a finished run with `size`, started after `after`. */
async function waitAllReconciled(s: Setup, names: string[], size: number, after: number, what: string): Promise<void> {
  const done = (n: string): boolean =>
    runsOf(s.log).some((r) => r.name === n && r.size === size && r.end !== undefined && r.start >= after);
  await waitFor(() => names.every(done), {
    what: `${what} (the runs are in ${s.log})`,
    timeoutMs: 45_000,
  });
}

/** Widgets spread over every shard: at least two per shard. */
function widgetNames(ns: string, shards: number, prefix: string): string[] {
  const names: string[] = [];
  const perShard = new Map<number, number>();
  for (
    let i = 0;
    names.length < shards * 2 || [...perShard.values()].some((c) => c < 2) || perShard.size < shards;
    i++
  ) {
    const name = `${prefix}${i}`;
    const shard = shardOf(ns, name, shards);
    if ((perShard.get(shard) ?? 0) >= 3) continue;
    perShard.set(shard, (perShard.get(shard) ?? 0) + 1);
    names.push(name);
  }
  return names;
}

describe('flowops run --shards: replicas split the watched objects, each shard a Lease', () => {
  it('two replicas hold half each; kill -9 of one moves its shards in the lease time, none lost/doubled', async () => {
    const shards = 4;
    const s = await start(2, shards);
    const split = await waitForSplit(s.replicas, shards, 'two replicas holding 2 shards each');
    expect(split.map((h) => h.length)).toEqual([2, 2]);

    const names = widgetNames(s.ns, shards, 'a');
    await cluster.kube().create(flow(s.ns, s.log));
    const created = Date.now();
    for (const n of names) await cluster.kube().create(widget(s.ns, n, 1));
    await waitAllReconciled(s, names, 1, created, 'every widget reconciled once with two replicas');

    const [victim, survivor] = s.replicas;
    if (!victim || !survivor) throw new Error('two replicas expected');
    const victimShards = split[0] ?? [];
    const killedAt = Date.now();
    victim.proc.kill9();
    // Changes while the shards are between holders: none may be lost.
    for (const n of names)
      await cluster
        .kube()
        .patch(
          { apiVersion: 'example.com/v1', kind: 'Widget', namespace: s.ns, name: n },
          { spec: { size: 2 } },
          'merge',
        );
    await waitFor(async () => (await heldBy(survivor))?.length === shards, {
      what: 'the survivor holding every shard',
      timeoutMs: 15_000,
    });
    const movedMs = Date.now() - killedAt;
    // The victim's last renewal preceded the kill: expiry within the lease duration, then one retry round.
    expect(movedMs).toBeLessThan(LEASE_MS + 2000);
    for (const i of victimShards) {
      const lease = await leaseHolder(s.ns, s.group, i);
      expect(lease.transitions, `shard ${i}: ${JSON.stringify(lease)}`).toBeGreaterThan(0);
    }

    await waitAllReconciled(s, names, 2, killedAt, 'every widget reconciled with its change after the kill');
    await s.stopSampling();
    expect(s.sharedSamples).toEqual([]);
    expect(overlaps(runsOf(s.log))).toEqual([]);

    // SIGTERM: watches stop, every Lease goes back (no holder), exit 0.
    expect(await stopGracefully(survivor.proc)).toEqual({ code: 0, signal: null });
    for (let i = 0; i < shards; i++) expect((await leaseHolder(s.ns, s.group, i)).holder).toBeUndefined();
  }, 180_000);

  it('three replicas, six shards: one that stops renewing (SIGSTOP) loses its shards, never shares them', async () => {
    const shards = 6;
    const s = await start(3, shards);
    const split = await waitForSplit(s.replicas, shards, 'three replicas holding 2 shards each');
    expect(split.map((h) => h.length)).toEqual([2, 2, 2]);
    const [frozen, ...others] = s.replicas;
    if (!frozen) throw new Error('three replicas expected');
    const names = widgetNames(s.ns, shards, 'b');
    await cluster.kube().create(flow(s.ns, s.log));
    const created = Date.now();
    for (const n of names) await cluster.kube().create(widget(s.ns, n, 1));
    await waitAllReconciled(s, names, 1, created, 'every widget reconciled once with three replicas');

    const pid = frozen.proc.child.pid;
    if (pid === undefined) throw new Error('no pid');
    process.kill(-pid, 'SIGSTOP');
    const stoppedAt = Date.now();
    await waitForSplit(others, shards, 'the two others holding 3 shards each', 15_000);
    for (const n of names)
      await cluster
        .kube()
        .patch(
          { apiVersion: 'example.com/v1', kind: 'Widget', namespace: s.ns, name: n },
          { spec: { size: 2 } },
          'merge',
        );
    await waitAllReconciled(
      s,
      names,
      2,
      stoppedAt,
      'every widget reconciled with its change while one replica is stopped',
    );

    // It wakes past its renew deadline: it must drop its shards, not carry on watching them.
    process.kill(-pid, 'SIGCONT');
    await waitFor(() => frozen.proc.stderr().includes('lost shard Leases'), {
      what: 'the woken replica saying it lost its shards',
    });
    // Then the three balance again, each shard still held once.
    await waitForSplit(s.replicas, shards, 'three replicas balanced again');
    await s.stopSampling();
    expect(s.sharedSamples).toEqual([]);
    expect(overlaps(runsOf(s.log))).toEqual([]);
  }, 180_000);

  it('a shard Lease whose holder stopped renewing is taken over only once it expired', async () => {
    const group = `gh-${randomUUID().slice(0, 8)}`;
    const now = new Date();
    const micro = now.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    await cluster.kube().create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: `${group}-shard-0`,
        namespace: 'default',
        labels: { 'flowops.io/shard-group': group, 'flowops.io/shard-role': 'shard' },
      },
      spec: {
        holderIdentity: 'ghost',
        leaseDurationSeconds: 4,
        acquireTime: micro,
        renewTime: micro,
        leaseTransitions: 0,
      },
    } as unknown as KubeObject);
    const expiresAt = now.getTime() + 4000;
    const proc = cluster.track(
      spawnFlowops(
        'run-ghost',
        [
          'run',
          '--kubeconfig',
          cluster.kubeconfig(),
          '--metrics-listen',
          '127.0.0.1:0',
          '--no-ui',
          '--queue',
          `gh-${randomUUID()}`,
          '--lease-namespace',
          'default',
          '--lease-name',
          group,
          '--shards',
          '2',
          ...LEASE,
        ],
        { FLOWOPS_LOG_LEVEL: 'info' },
      ),
    );
    const r: Replica = { proc, metrics: await metricsAddressOf(proc) };
    let sawShard0Early = false;
    await waitFor(
      async () => {
        const held = await heldBy(r);
        if (held?.includes(0) && Date.now() < expiresAt) sawShard0Early = true;
        return held?.includes(0) && held.includes(1);
      },
      { what: 'both shards held once the ghost expired', timeoutMs: 20_000 },
    );
    expect(sawShard0Early).toBe(false);
    const after = await leaseHolder('default', group, 0);
    expect(after.holder).not.toBe('ghost');
    expect(after.transitions).toBe(1);
  }, 120_000);

  it('refuses a shard count that is not a whole number from 1 to 256, naming the flag', async () => {
    const bad = spawnFlowops('run-bad', ['run', '--kubeconfig', cluster.kubeconfig(), '--shards', 'two']);
    const { code } = await bad.exited;
    expect(code).not.toBe(0);
    expect(bad.stderr()).toContain('--shards: expected a whole number from 1 to 256, got "two"');
    const env = spawnFlowops(
      'run-bad-env',
      ['run', '--kubeconfig', cluster.kubeconfig(), '--metrics-listen', '127.0.0.1:0'],
      { FLOWOPS_SHARDS: '0' },
    );
    expect((await env.exited).code).toBe(2);
    expect(env.stderr()).toContain('FLOWOPS_SHARDS: expected a whole number from 1 to 256, got "0"');
  });
});
