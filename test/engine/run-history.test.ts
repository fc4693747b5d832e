import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/api/duration.js';
import { RUN_HISTORY_LIMIT, type RunHistory } from '../../src/api/run-history.js';
import { CACHE_CRD, CACHE_FLOW, cache, requiresSizeFlow, sizelessCache } from '../fixtures/cache-operator.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

// Each watched object's RunHistory: the engine's bounded record of its last runs, with durations,
// beside the object (owned by it) and shown by `kubectl get runs`.

let env: FlowOpsEnv;
const historyOf = async (name: string): Promise<RunHistory | undefined> => {
  const r = await env.kubectl(['get', 'runhistory', name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as RunHistory) : undefined;
};

beforeAll(async () => {
  env = await startFlowOps();
  await env.kubectl.ok(['apply', '-f', '-'], CACHE_CRD);
  await env.kubectl.ok(['apply', '-f', '-'], CACHE_FLOW);
});
afterAll(async () => env?.stop());

describe('RunHistory', () => {
  it('records a run with its start, its duration and each step with its own, owned by the watched object', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], cache({ replicas: 1, shards: [1], extra: false }, 'timed'));
    const h = await waitFor(
      async () => ((await historyOf('cache-timed'))?.status?.runs.length ? historyOf('cache-timed') : undefined),
      { what: 'the RunHistory of cache timed' },
    );
    const obj = JSON.parse(await env.kubectl.ok(['get', 'cache', 'timed', '-o', 'json'])) as {
      metadata: { uid: string };
    };
    expect(h!.spec).toEqual({
      object: {
        apiVersion: 'example.com/v1',
        kind: 'Cache',
        name: 'timed',
        namespace: 'default',
        uid: obj.metadata.uid,
      },
      flow: 'default/cache-operator',
    });
    expect(h!.metadata).toMatchObject({ ownerReferences: [{ kind: 'Cache', name: 'timed', uid: obj.metadata.uid }] });
    const run = h!.status!.runs[0]!;
    expect(run.outcome).toBe('Succeeded');
    expect(Date.now() - Date.parse(run.startTime)).toBeLessThan(5 * 60_000);
    expect(parseDuration(run.duration)).toBeGreaterThanOrEqual(0);
    expect(run.steps.map((s) => [s.name, s.result])).toEqual([
      ['workload', 'succeeded'],
      ['shards', 'succeeded'],
      ['extra', 'skipped'],
    ]);
    for (const s of run.steps) expect(() => parseDuration(s.duration)).not.toThrow();
    // The sum of the steps is not more than the run.
    expect(run.steps.reduce((n, s) => n + parseDuration(s.duration), 0)).toBeLessThanOrEqual(
      parseDuration(run.duration) + run.steps.length,
    );
  });

  it('keeps the newest runs first, bounded, and counts them all', async () => {
    for (let i = 2; i <= RUN_HISTORY_LIMIT + 3; i++) {
      await env.kubectl.ok([
        'patch',
        'cache',
        'timed',
        '--type',
        'merge',
        '-p',
        JSON.stringify({ spec: { replicas: i } }),
      ]);
      // One run per change: wait for it, so no two changes fold into one run.
      await waitFor(async () => ((await historyOf('cache-timed'))?.status?.total ?? 0) >= i, {
        what: `run ${i} recorded`,
      });
    }
    const h = (await historyOf('cache-timed'))!;
    expect(h.status!.runs).toHaveLength(RUN_HISTORY_LIMIT);
    expect(h.status!.total).toBeGreaterThanOrEqual(RUN_HISTORY_LIMIT + 3);
    const starts = h.status!.runs.map((r) => Date.parse(r.startTime));
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
  });

  it('records a failed run with the failing step and its error', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], requiresSizeFlow('failing-operator', 'failing', false));
    await env.kubectl.ok(['apply', '-f', '-'], sizelessCache('failing', 'failing'));
    const h = await waitFor(
      async () => ((await historyOf('cache-failing'))?.status?.runs.length ? historyOf('cache-failing') : undefined),
      { what: 'the RunHistory of cache failing' },
    );
    const run = h!.status!.runs[0]!;
    expect(run.outcome).toBe('Stalled');
    expect(run.steps).toMatchObject([{ name: 'render', result: 'failed', attempts: 1 }]);
    expect(run.error).toMatchObject({ step: 'render', reason: 'TemplateError' });
    expect(run.error!.message).toContain('spec.size is required');
    expect(h!.spec.flow).toBe('default/failing-operator');
  });

  it("kubectl get runs shows each object's last run; the record goes with its object", async () => {
    const table = await env.kubectl.ok(['get', 'runs']);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+KIND\s+OBJECT\s+FLOW\s+LAST-RUN\s+DURATION\s+RAN/);
    expect(table).toMatch(/cache-timed\s+Cache\s+timed\s+default\/cache-operator\s+Succeeded\s+\d+(\.\d+)?m?s\s+\d+s/);
    expect(table).toMatch(/cache-failing\s+Cache\s+failing\s+default\/failing-operator\s+Stalled/);
    await env.kubectl.ok(['delete', 'cache', 'failing']);
    await waitFor(async () => (await historyOf('cache-failing')) === undefined, {
      what: 'the RunHistory of the deleted cache gone',
    });
  });
});
