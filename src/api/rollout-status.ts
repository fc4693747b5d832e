import { z } from 'zod';

/**
 * The rollout part of a Flow's status (issue #24, docs/rollout.md): the generations still in use
 * with their object counts, and the progress of `spec.rollout` through its stages. The engine
 * writes it through the status subresource; `flowops rollout status`, `kubectl get flows` and the
 * web view read it. The names are the shared rollout contract's; do not rename one without the other.
 */

export const ROLLOUT_STATES = ['Progressing', 'Paused', 'Halted', 'RolledBack', 'Aborted', 'Complete'] as const;
export const STAGE_STATES = ['Pending', 'Progressing', 'Paused', 'Passed', 'Failed'] as const;

const count = z.number().int().min(0);
const time = z.iso.datetime({ offset: true });

export const generationStatusSchema = z.object({
  generation: z.number().int().min(1),
  revision: z.string().describe("The ControllerRevision that keeps this generation's spec: <flow>-g<generation>."),
  objects: count.describe('Watched objects on this generation now.'),
  ready: count,
});

export const stageStatusSchema = z.object({
  index: count,
  target: count.describe('The cumulative number of objects this stage brings to the new generation.'),
  updated: count,
  ready: count,
  state: z.enum(STAGE_STATES),
  startedAt: time.optional(),
  passedAt: time.optional(),
});

export const failedObjectSchema = z.object({
  object: z.string().describe('namespace/name of the watched object.'),
  reason: z.string(),
});

export const rolloutStatusSchema = z.object({
  generation: z.number().int().min(1).describe('The generation being rolled out.'),
  fromGeneration: z.number().int().min(1).optional(),
  state: z.enum(ROLLOUT_STATES),
  currentStage: count.describe('0-based index into spec.rollout.stages.'),
  startedAt: time.optional(),
  message: z.string().optional(),
  stages: z.array(stageStatusSchema).optional(),
  failed: z
    .array(failedObjectSchema)
    .describe('On Halted or RolledBack: the objects and their reasons (at most 20).')
    .optional(),
  lastPromote: z
    .string()
    .describe('The flowops.io/rollout-promote value last acted on, so one promote moves one stage.')
    .optional(),
});

export type RolloutState = (typeof ROLLOUT_STATES)[number];
export type StageState = (typeof STAGE_STATES)[number];
export type GenerationStatus = z.infer<typeof generationStatusSchema>;
export type StageStatus = z.infer<typeof stageStatusSchema>;
export type RolloutStatus = z.infer<typeof rolloutStatusSchema>;
