import { z } from 'zod';
import { generationStatusSchema, rolloutStatusSchema } from './rollout-status.js';

/**
 * What FlowOps writes under a Flow's `status`, in the kstatus shape (observedGeneration plus a
 * `Ready` condition) so that `kubectl wait --for=condition=Ready`, Argo CD and Flux health checks
 * understand a Flow without FlowOps-specific code. The same zod schema gives the TypeScript type
 * and the CRD's status schema.
 */

export const conditionSchema = z.object({
  type: z.string().min(1),
  status: z.enum(['True', 'False', 'Unknown']),
  // Optional, unlike metav1.Condition: a writer that has no reason yet must not be rejected by the
  // API server and lose the whole status update.
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.iso.datetime({ offset: true }).optional(),
  observedGeneration: z.number().int().min(0).optional(),
});

export const flowStatusSchema = z.object({
  observedGeneration: z.number().int().min(0).optional(),
  conditions: z
    .array(conditionSchema)
    // A list-type map keyed by type lets server-side apply merge conditions written by different
    // field managers instead of replacing the whole list.
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
    .optional(),
  resources: z
    .object({
      watched: z.number().int().min(0).optional(),
      succeeded: z.number().int().min(0).optional(),
      failed: z.number().int().min(0).optional(),
      ready: z
        .number()
        .int()
        .min(0)
        .describe('Watched objects whose last run succeeded and whose children are all ready.')
        .optional(),
      notReady: z
        .number()
        .int()
        .min(0)
        .describe('Watched objects whose last run succeeded but whose children are not all ready.')
        .optional(),
    })
    .optional(),
  lastError: z.string().optional(),
  lastReconcileTime: z.iso.datetime({ offset: true }).optional(),
  generations: z.array(generationStatusSchema).describe('Every generation still in use, newest first.').optional(),
  rollout: rolloutStatusSchema.describe('The progress of spec.rollout; absent without it.').optional(),
});

export type Condition = z.infer<typeof conditionSchema>;
export type FlowStatus = z.infer<typeof flowStatusSchema>;
