// What FlowOps writes under a Flow's status about its generations and its rollout (docs/rollout.md).

import { z } from 'zod';

const count = z.number().int().min(0);

export const generationStatusSchema = z.object({
  generation: z.number().int().min(1),
  revision: z.string().describe("The ControllerRevision holding this generation's spec."),
  objects: count.describe('Watched objects on this generation now.'),
  ready: count,
});

export const ROLLOUT_STATES = ['Progressing', 'Paused', 'Halted', 'RolledBack', 'Aborted', 'Complete'] as const;
export const STAGE_STATES = ['Pending', 'Progressing', 'Paused', 'Passed', 'Failed'] as const;

export const stageStatusSchema = z.object({
  index: count,
  target: count.describe('The cumulative object count this stage brings to the new generation.'),
  updated: count,
  ready: count,
  state: z.enum(STAGE_STATES),
  startedAt: z.string().optional(),
  passedAt: z.string().optional(),
});

export const rolloutStatusSchema = z.object({
  generation: z.number().int().min(1).describe('The generation being rolled out.'),
  fromGeneration: z.number().int().min(1).optional(),
  state: z.enum(ROLLOUT_STATES),
  currentStage: count,
  startedAt: z.string().optional(),
  message: z.string().optional(),
  stages: z.array(stageStatusSchema).optional(),
  failed: z.array(z.object({ object: z.string(), reason: z.string() })).optional(),
  /** The flowops.io/rollout-promote value last acted on, so one promote moves one stage. */
  lastPromote: z.string().optional(),
});

export type GenerationStatus = z.infer<typeof generationStatusSchema>;
export type RolloutStatus = z.infer<typeof rolloutStatusSchema>;
export type StageStatus = z.infer<typeof stageStatusSchema>;
export type RolloutState = RolloutStatus['state'];
