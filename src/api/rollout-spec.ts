// spec.rollout of a Flow: how a new generation of the Flow reaches its watched objects (issue #24).
// Bad input is refused here, so `flowops validate` and a FlowSource commit name its file:line.

import { z } from 'zod';
import { isDuration, parseDuration } from './duration.js';
import { parseLabelSelector } from '../apiserver/selectors/index.js';

const duration = z.string().refine(isDuration, { message: 'expected a duration such as "30s", "5m" or "1h30m"' });

const selectorText = z.string().superRefine((s, ctx) => {
  const refuse = (why: string): void =>
    ctx.addIssue({ code: 'custom', message: `expected a label selector such as "tier=canary": ${why}` });
  if (!s.trim()) return refuse('empty selector');
  try {
    parseLabelSelector(s);
  } catch (err) {
    refuse(err instanceof Error ? err.message : String(err));
  }
});

const pauseSchema = z
  .object({
    duration: duration.describe('Wait this long after the stage passed before the next stage starts.').optional(),
    untilPromoted: z.boolean().describe('Wait for flowops.io/rollout-promote (flowops rollout promote).').optional(),
  })
  .strict()
  .refine((p) => (p.duration === undefined) !== (p.untilPromoted === undefined), {
    message: 'expected exactly one of duration or untilPromoted',
  });

export const rolloutStageSchema = z
  .object({
    count: z.number().int().min(1).describe('Cumulative objects on the new generation.').optional(),
    percent: z
      .number()
      .int()
      .min(1)
      .max(100)
      .describe('Cumulative share of the watched objects on the new generation (rounded up).')
      .optional(),
    selector: selectorText
      .describe('A label selector (kubectl syntax): the objects it matches move in this stage.')
      .optional(),
    pause: pauseSchema.describe('Wait after the stage passed: a duration, or until promoted.').optional(),
  })
  .strict()
  .refine((s) => [s.count, s.percent, s.selector].filter((v) => v !== undefined).length === 1, {
    message: 'expected exactly one of count, percent or selector',
  });

const maxUnavailable = z.union([
  z.number().int().min(1, 'expected at least 1'),
  z.string().regex(/^([1-9]\d?|100)%$/, 'expected an integer or a percentage such as "25%"'),
]);

export const rolloutSchema = z
  .object({
    stages: z
      .array(rolloutStageSchema)
      .min(1, 'expected at least one stage')
      .describe('In order; each passes when its objects are Ready.'),
    maxUnavailable: maxUnavailable
      .describe('Objects on the new generation allowed not Ready at once (default 25%, at least 1).')
      .optional(),
    progressDeadline: duration
      .refine((d) => !isDuration(d) || parseDuration(d) > 0, { message: 'expected a deadline greater than 0' })
      .describe('A stage whose objects are not Ready within this fails (default "10m").')
      .optional(),
    onFailure: z
      .enum(['halt', 'rollback'])
      .describe('halt (default): stop where it failed; rollback: return reached objects.')
      .optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    let last = 0;
    let lastCount = 0;
    r.stages.forEach((s, i) => {
      if (s.percent !== undefined) {
        if (s.percent <= last && s.percent >= 1) {
          const message = `expected percentages in increasing order: ${s.percent} after ${last}`;
          ctx.addIssue({ code: 'custom', path: ['stages', i, 'percent'], message });
        }
        last = s.percent;
      }
      if (s.count !== undefined) {
        if (s.count <= lastCount && s.count >= 1) {
          const message = `expected counts in increasing order: ${s.count} after ${lastCount}`;
          ctx.addIssue({ code: 'custom', path: ['stages', i, 'count'], message });
        }
        lastCount = s.count;
      }
    });
  });

export type RolloutSpec = z.infer<typeof rolloutSchema>;
export type RolloutStage = z.infer<typeof rolloutStageSchema>;
