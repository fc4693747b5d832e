import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowops } from '../helpers/cli.js';

// Bad spec.rollout input is refused by `flowops validate` (the same check a FlowSource commit
// gets) with file:line, the field and what was expected.

const FLOW = (rollout: string): string => `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: shop }
spec:
  watch: { apiVersion: example.com/v1, kind: Shop }
  reconcile:
    steps:
      - { name: s, type: script, script: "true" }
  rollout:
${rollout}`;

async function validate(text: string): Promise<{ code: number | null; stdout: string; stderr: string; file: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'flowops-rollout-')), 'flow.yaml');
  writeFileSync(file, text);
  const p = runFlowops(['validate', file]);
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr(), file };
}

describe.concurrent('flowops validate refuses a bad spec.rollout', () => {
  it('passes a good one', async () => {
    const r = await validate(
      FLOW(`    stages:
      - count: 1
      - percent: 10
        pause: { duration: 5m }
      - selector: tier=canary
        pause: { untilPromoted: true }
      - percent: 100
    maxUnavailable: "25%"
    progressDeadline: 10m
    onFailure: rollback
`),
    );
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });

  it.each([
    [
      'a stage of 0 objects',
      '    stages:\n      - count: 0\n',
      ':11: spec.rollout.stages[0].count: must be at least 1',
    ],
    [
      'a percentage of 0',
      '    stages:\n      - percent: 0\n',
      ':11: spec.rollout.stages[0].percent: must be at least 1',
    ],
    ['no stage at all', '    stages: []\n', ':10: spec.rollout.stages: must have at least 1 item'],
    [
      'counts out of order',
      '    stages:\n      - count: 5\n      - count: 5\n',
      ':12: spec.rollout.stages[1].count: expected counts in increasing order: 5 after 5',
    ],
    [
      'a percentage over 100',
      '    stages:\n      - percent: 120\n',
      ':11: spec.rollout.stages[0].percent: must be at most 100',
    ],
    [
      'percentages out of order',
      '    stages:\n      - percent: 50\n      - percent: 10\n',
      ':12: spec.rollout.stages[1].percent: expected percentages in increasing order: 10 after 50',
    ],
    [
      'a stage with two kinds',
      '    stages:\n      - { count: 1, percent: 10 }\n',
      ':11: spec.rollout.stages[0]: expected exactly one of count, percent or selector',
    ],
    [
      'a stage with none',
      '    stages:\n      - pause: { untilPromoted: true }\n',
      ':11: spec.rollout.stages[0]: expected exactly one of count, percent or selector',
    ],
    [
      'a deadline of 0',
      '    stages: [ { count: 1 } ]\n    progressDeadline: 0s\n',
      ':11: spec.rollout.progressDeadline: expected a deadline greater than 0',
    ],
    [
      'bad selector syntax',
      '    stages:\n      - selector: "tier in (a"\n',
      `:11: spec.rollout.stages[0].selector: expected a label selector such as "tier=canary": ` +
        "unable to parse requirement: found '', expected: ',' or ')'",
    ],
  ])('%s', async (_what, rollout, want) => {
    const r = await validate(FLOW(rollout));
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([`${r.file}${want}`]);
  });
});
