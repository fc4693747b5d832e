import { z } from 'zod';
import { RUNHISTORY_KIND, FLOW_API_VERSION } from './names.js';

/**
 * The RunHistory resource (flowops.io/v1, namespaced): the last runs of one watched object, newest
 * first and at most RUN_HISTORY_LIMIT of them, each with its outcome, start time, duration, the
 * Flow generation and commit it ran, every step's result, attempts and duration, and the error.
 * FlowOps writes it beside the object (owned by it, so it goes when the object goes), not on the
 * object: a run that changes nothing leaves the watched object, and its watchers, alone.
 */
export const RUN_HISTORY_LIMIT = 10;

/**
 * What made a run: the watched object changed, a child drifted from what was applied, a child's
 * status changed, a child was deleted (the run puts it back), the Flow changed, a periodic resync
 * or a retry (nothing enqueued it but the queue), or `flowops reconcile` asked for it.
 */
export const RUN_TRIGGERS = [
  'object-change',
  'child-drift',
  'child-status',
  'child-deleted',
  'flow-change',
  'resync',
  'manual',
] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

const stepRun = z
  .object({
    name: z.string(),
    result: z.enum(['succeeded', 'skipped', 'failed']),
    attempts: z.number().int(),
    duration: z.string().describe('Wall time of the step with its retries, e.g. "42ms" or "1.5s"'),
  })
  .strict();

export const runSchema = z
  .object({
    startTime: z.string().describe('RFC 3339 time the run started'),
    duration: z.string().describe('Wall time of the whole run, e.g. "180ms" or "2.4s"'),
    outcome: z.enum(['Succeeded', 'Failed', 'Stalled']),
    flowGeneration: z.number().int(),
    revision: z.string().optional().describe('The commit the Flow came from (branch@sha1:…)'),
    triggers: z.array(z.enum(RUN_TRIGGERS)).optional().describe('What enqueued the run since the last one, each once'),
    steps: z.array(stepRun),
    error: z.object({ step: z.string(), reason: z.string(), message: z.string() }).strict().optional(),
  })
  .strict();

export const runHistorySchema = z
  .object({
    apiVersion: z.literal(FLOW_API_VERSION),
    kind: z.literal(RUNHISTORY_KIND),
    metadata: z.object({ name: z.string(), namespace: z.string().optional() }).passthrough(),
    spec: z
      .object({
        object: z
          .object({
            apiVersion: z.string(),
            kind: z.string(),
            name: z.string(),
            namespace: z.string().optional(),
            uid: z.string(),
          })
          .strict()
          .describe('The watched object these runs are of'),
        flow: z.string().describe('namespace/name of the Flow that ran them'),
      })
      .strict(),
    status: z
      .object({
        runs: z.array(runSchema).max(RUN_HISTORY_LIMIT).describe('Newest first'),
        total: z.number().int().describe('Runs recorded since the record was made, including those no longer listed'),
      })
      .strict()
      .optional(),
  })
  .strict();

export type Run = z.infer<typeof runSchema>;
export type StepRun = z.infer<typeof stepRun>;
export type RunHistory = z.infer<typeof runHistorySchema>;
