import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject, ObjectRef } from '../../src/kube/types.js';
import type { RolloutStatus } from '../../src/api/rollout-status.js';
import { flowYaml } from '../gitops/fixtures.js';
import { useTestServer } from '../helpers/apiserver.js';
import { ROOT, runFlowops, type CliProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

// `flowops rollout` and the Flow's printer columns, against the embedded API server with the Flow
// CRD as config/crd has it. No engine runs here: the test writes status.rollout through the status
// subresource as the engine does (docs/rollout.md), and reads the annotations the controls write.

const fixture = useTestServer();
const ref: ObjectRef = { apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name: 'db' };
let kube: KubeClient;

function flowops(...args: string[]): CliProcess {
  return runFlowops([...args, '--kubeconfig', fixture.ts.kubeconfig]);
}
async function ran(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = flowops(...args);
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

const stage = (
  index: number,
  target: number,
  updated: number,
  ready: number,
  state: string,
): Record<string, unknown> => ({ index, target, updated, ready, state });
async function writeRollout(rollout: RolloutStatus | null, generations: unknown[] = []): Promise<void> {
  // A merge patch keeps what it does not name: the lists and the message the engine would replace go too.
  const whole = rollout === null ? null : { failed: null, message: null, ...rollout };
  await kube.patch(ref, { status: { rollout: whole, generations } }, 'merge', { subresource: 'status' });
}
const annotations = async (): Promise<Record<string, string>> => (await kube.get(ref))?.metadata.annotations ?? {};
const flow = async (): Promise<KubeObject> => {
  const f = await kube.get(ref);
  if (!f) throw new Error('Flow db is gone');
  return f;
};

const progressing = (currentStage: number, stages: Array<Record<string, unknown>>, message: string): RolloutStatus =>
  ({
    generation: 2,
    fromGeneration: 1,
    state: 'Progressing',
    currentStage,
    startedAt: '2026-12-01T10:00:00Z',
    message,
    stages,
  }) as RolloutStatus;

beforeAll(async () => {
  kube = KubeClient.fromKubeconfig(fixture.ts.kubeconfig);
  await fixture.kubectl.ok(['apply', '-f', join(ROOT, 'config/crd/flowops.io_flows.yaml')]);
  await fixture.kubectl.ok(['wait', '--for=condition=Established', 'crd/flows.flowops.io', '--timeout=30s']);
  await fixture.kubectl.ok(['apply', '-f', '-'], flowYaml('db'));
  // A second spec: generation 2, the one being rolled out.
  await fixture.kubectl.ok(['apply', '-f', '-'], flowYaml('db', 'v2'));
  expect((await flow()).metadata.generation).toBe(2);
});

describe('flowops rollout', () => {
  it('refuses every control and says so when the Flow has no rollout', async () => {
    const r = await ran('rollout', 'promote', 'flow', 'db');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^flowops: Flow default\/db has no rollout \(no status\.rollout/);
    expect(await ran('rollout', 'status', 'flow', 'db')).toMatchObject({
      code: 0,
      stdout: 'Flow default/db has no spec.rollout: every change reaches all its objects at once\n',
    });
    expect(await ran('rollout', 'status', 'source', 'db')).toMatchObject({
      code: 2,
      stderr: 'flowops: rollout works on flows: expected "flow", got "source"\n',
    });
    expect(await ran('rollout', 'pause', 'flow', 'nope')).toMatchObject({
      code: 2,
      stderr: 'flowops: Flow default/nope not found\n',
    });
  });

  it('kubectl get flows shows ROLLOUT, and STAGE with -o wide', async () => {
    await writeRollout(
      progressing(
        1,
        [stage(0, 1, 1, 1, 'Passed'), stage(1, 10, 4, 3, 'Progressing')],
        'stage 2 of 2: 4 of 10 objects on generation 2, 3 ready',
      ),
    );
    const plain = await fixture.kubectl.ok(['get', 'flows']);
    expect(plain.split('\n')[0]).toMatch(/^NAME\s+WATCHED\s+READY\s+RESOURCES\s+CHILDREN-READY\s+ROLLOUT\s+AGE$/);
    // Ready and the counts are empty: no engine has written them.
    expect(plain).toMatch(/^db\s+Widget\s+Progressing\s+\d+s$/m);
    const wide = await fixture.kubectl.ok(['get', 'flows', '-o', 'wide']);
    expect(wide.split('\n')[0]).toMatch(/\sROLLOUT\s+STAGE\s+STATUS\s+AGE$/);
    expect(wide).toMatch(/^db\s+Widget\s+Progressing\s+1\s+\d+s$/m);
  });

  it('status --watch=false prints the stages, the generations (a missing revision marked), the failures', async () => {
    await kube.create({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'db-g2', namespace: 'default', labels: { 'flowops.io/flow': 'db' } },
      revision: 2,
      data: { spec: {} },
    });
    await writeRollout(
      {
        ...progressing(1, [stage(0, 1, 1, 1, 'Passed'), stage(1, 10, 4, 3, 'Failed')], 'stage 2 failed'),
        state: 'Halted',
        failed: [{ object: 'default/w-007', reason: 'child ConfigMap w-007 not Ready within 10m' }],
      },
      [
        { generation: 2, revision: 'db-g2', objects: 4, ready: 3 },
        { generation: 1, revision: 'db-g1', objects: 96, ready: 96 },
      ],
    );
    const r = await ran('rollout', 'status', 'flow', 'db', '--watch=false');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Flow default/db: rollout of generation 2 from generation 1: Halted',
        '  stage 2 failed',
        '',
        'STAGE   TARGET   UPDATED   READY   STATE    CURRENT',
        '1       1        1         1       Passed',
        '2       10       4         3       Failed   *',
        '',
        'GENERATION   REVISION          OBJECTS   READY',
        '2            db-g2             4         3',
        '1            db-g1 (missing)   96        96',
        '',
        'FAILED OBJECT   REASON',
        'default/w-007   child ConfigMap w-007 not Ready within 10m',
        '',
      ].join('\n'),
    );
  });

  it('status waits on the watch, printing each change of progress, and exits 0 on Complete', async () => {
    await writeRollout(
      progressing(
        0,
        [stage(0, 1, 0, 0, 'Progressing'), stage(1, 10, 0, 0, 'Pending')],
        'stage 1 of 2: 0 of 10 objects on generation 2',
      ),
    );
    const p = flowops('rollout', 'status', 'flow', 'db', '--timeout', '60s');
    await waitFor(() => p.stdout().includes('stage 1 of 2: 0 of 10'), {
      what: `the first progress line (stderr: ${p.stderr()})`,
      timeoutMs: 30_000,
    });
    await writeRollout(
      progressing(
        1,
        [stage(0, 1, 1, 1, 'Passed'), stage(1, 10, 5, 4, 'Progressing')],
        'stage 2 of 2: 5 of 10 objects on generation 2, 4 ready',
      ),
    );
    await waitFor(() => p.stdout().includes('5 of 10'), { what: 'the second progress line' });
    await writeRollout({
      ...progressing(
        1,
        [stage(0, 1, 1, 1, 'Passed'), stage(1, 10, 10, 10, 'Passed')],
        'all 10 objects on generation 2',
      ),
      state: 'Complete',
    });
    expect((await p.exited).code).toBe(0);
    const waiting = 'Waiting for the rollout of Flow default/db generation 2 to finish: Progressing';
    expect(p.stdout().split('\n')).toEqual([
      `${waiting}: stage 1 of 2: 0 of 10 objects on generation 2...`,
      `${waiting}: stage 2 of 2: 5 of 10 objects on generation 2, 4 ready...`,
      'Flow default/db: generation 2 successfully rolled out',
      '',
    ]);
  });

  it('status exits 1 with the reasons on a halt, and on --timeout', async () => {
    await writeRollout(progressing(0, [stage(0, 1, 0, 0, 'Progressing')], 'stage 1 of 1'));
    const p = flowops('rollout', 'status', 'flow', 'db');
    await waitFor(() => p.stdout().includes('stage 1 of 1'), {
      what: `the progress line (stderr: ${p.stderr()})`,
      timeoutMs: 30_000,
    });
    await writeRollout({
      ...progressing(0, [stage(0, 1, 1, 0, 'Failed')], 'stage 1 not Ready within 10m'),
      state: 'Halted',
      failed: [{ object: 'default/w-001', reason: 'child ConfigMap w-001 not Ready' }],
    });
    expect((await p.exited).code).toBe(1);
    expect(p.stderr()).toBe(
      'Flow default/db: rollout of generation 2 Halted: stage 1 not Ready within 10m\n' +
        '  default/w-001: child ConfigMap w-001 not Ready\n',
    );

    await writeRollout(progressing(0, [stage(0, 1, 0, 0, 'Progressing')], 'stage 1 of 1'));
    const t = await ran('rollout', 'status', 'flow', 'db', '--timeout', '1s');
    expect(t).toMatchObject({ code: 1, stderr: 'timed out after 1s waiting for the rollout of Flow default/db\n' });
  });

  it('a status of an older generation is not taken for the end of this one', async () => {
    await writeRollout({ ...progressing(0, [], 'done'), generation: 1, state: 'Complete' });
    const t = await ran('rollout', 'status', 'flow', 'db', '--timeout', '1s');
    expect(t.code).toBe(1);
    expect(t.stdout).toContain(
      'Waiting for the rollout of Flow default/db generation 2 to start (status is of generation 1)...',
    );
  });

  it("promote, pause, resume, abort write the contract's annotations as flowops; refuse if meaningless", async () => {
    await writeRollout(progressing(0, [stage(0, 1, 1, 1, 'Progressing')], 'stage 1 of 2'));
    const notPaused = await ran('rollout', 'promote', 'flow', 'db');
    expect(notPaused).toMatchObject({
      code: 2,
      stderr:
        'flowops: Flow default/db: cannot promote: stage 1 is Progressing, not paused; ' +
        'promote moves a paused stage on\n',
    });
    expect(await annotations()).not.toHaveProperty(['flowops.io/rollout-promote']);

    await writeRollout({
      ...progressing(0, [stage(0, 1, 1, 1, 'Paused')], 'stage 1 paused until promoted'),
      state: 'Paused',
    });
    const before = Date.now();
    expect(await ran('rollout', 'promote', 'flow', 'db')).toMatchObject({
      code: 0,
      stdout: 'flow.flowops.io/db promoted\n',
    });
    const promotedAt = Date.parse((await annotations())['flowops.io/rollout-promote'] ?? '');
    expect(promotedAt).toBeGreaterThanOrEqual(before - 1000);
    const f = await flow();
    expect(f.metadata.generation).toBe(2);
    expect(
      (f.metadata.managedFields as Array<{ manager?: string; fieldsV1?: unknown }> | undefined)?.some(
        (m) => m.manager === 'flowops' && JSON.stringify(m.fieldsV1).includes('f:flowops.io/rollout-promote'),
      ),
    ).toBe(true);

    expect(await ran('rollout', 'resume', 'flow', 'db')).toMatchObject({
      code: 2,
      stderr:
        'flowops: Flow default/db: cannot resume: it is not paused by "flowops rollout pause" but by its stage; ' +
        'use "flowops rollout promote"\n',
    });
    expect(await ran('rollout', 'pause', 'flow', 'db')).toMatchObject({
      code: 0,
      stdout: 'flow.flowops.io/db paused\n',
    });
    expect((await annotations())['flowops.io/rollout-paused']).toBe('true');
    expect((await ran('rollout', 'pause', 'flow', 'db')).stderr).toMatch(/cannot pause: already paused/);
    expect(await ran('rollout', 'resume', 'flow', 'db')).toMatchObject({
      code: 0,
      stdout: 'flow.flowops.io/db resumed\n',
    });
    expect(await annotations()).not.toHaveProperty(['flowops.io/rollout-paused']);

    expect(await ran('rollout', 'abort', 'flow', 'db')).toMatchObject({
      code: 0,
      stdout: 'flow.flowops.io/db aborted\n',
    });
    expect(Date.parse((await annotations())['flowops.io/rollout-abort'] ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect((await flow()).metadata.generation).toBe(2);

    await writeRollout({
      ...progressing(0, [stage(0, 1, 0, 0, 'Passed')], 'reached objects returned to generation 1'),
      state: 'Aborted',
    });
    expect(await ran('rollout', 'abort', 'flow', 'db')).toMatchObject({
      code: 2,
      stderr: 'flowops: Flow default/db: cannot abort: its rollout of generation 2 is Aborted\n',
    });
  }, 180_000);
});
