import { z } from 'zod';
import { isDuration } from './duration.js';
import { conditionSchema } from './status.js';

/**
 * The FlowSource resource (flowops.io/v1, namespaced): a Git repository folder whose definitions
 * FlowOps applies, commit by commit. One zod schema gives the TypeScript type and the CRD schema.
 */

import { FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from './names.js';
export { FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND, FLOWSOURCE_PLURAL } from './names.js';

const duration = z.string().refine(isDuration, { message: 'expected a duration such as "30s", "5m" or "1h30m"' });
const localRef = z.object({ name: z.string().min(1) }).strict();

export const sourceRefSchema = z
  .object({
    branch: z.string().min(1).describe('Branch to follow (default "main"); kept while pinned so that --unpin returns to it.').optional(),
    tag: z.string().min(1).describe('Tag to follow instead of a branch.').optional(),
    commit: z
      .string()
      .regex(/^[0-9a-f]{40}$/, 'expected a full 40-character commit sha')
      .describe('Pin: apply exactly this commit and never move forward (set by `flowops rollback --to`).')
      .optional(),
  })
  .strict()
  .refine((r) => !(r.branch && r.tag), { message: 'set branch or tag, not both' });

export const flowSourceSpecSchema = z
  .object({
    url: z
      .string()
      .regex(/^https?:\/\//, 'expected an http:// or https:// Git URL (FlowOps fetches over smart HTTP)')
      .describe('Clone URL of the repository (smart HTTP/HTTPS).'),
    ref: sourceRefSchema.describe('What to follow: a branch (default main), a tag, or a pinned commit.').optional(),
    path: z.string().describe('Folder inside the repository that holds the definitions (default: the whole repository).').optional(),
    interval: duration.describe('How often to poll (default "1m"; a webhook or push triggers at once).').optional(),
    secretRef: localRef.describe('Secret in the same namespace with username + password, or bearerToken, for HTTP auth.').optional(),
    webhookSecretRef: localRef.describe('Secret whose `token` key checks webhook calls (HMAC for GitHub and Gitea, token for GitLab).').optional(),
    suspend: z.boolean().describe('Stop polling and applying (the applied objects stay).').optional(),
    serviceAccountName: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'expected a ServiceAccount name (lower-case letters, digits, "-" or ".")')
      .describe('What this source applies and prunes is applied as this ServiceAccount of its namespace (impersonation).')
      .optional(),
    prune: z
      .boolean()
      .describe('When the FlowSource is deleted, delete what it applied (default true, as Flux does with prune). false leaves the objects in place.')
      .optional(),
  })
  .strict();

export const inventoryEntrySchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  path: z.string().describe('File in the repository that defines the object.'),
});

export const historyEntrySchema = z.object({
  revision: z.string(),
  time: z.iso.datetime({ offset: true }),
  outcome: z.enum(['Applied', 'Rejected', 'Failed']),
  message: z.string().optional(),
  subject: z.string().describe('The commit\'s subject line.').optional(),
  author: z.string().describe('The commit\'s author name.').optional(),
  authoredAt: z.string().describe('When the commit was authored (RFC 3339).').optional(),
});

export const skippedEntrySchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  reason: z.string(),
});

export const flowSourceStatusSchema = z.object({
  observedGeneration: z.number().int().min(0).optional(),
  conditions: z.array(conditionSchema).meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }).optional(),
  lastAppliedRevision: z.string().optional(),
  lastAttemptedRevision: z.string().optional(),
  inventory: z.array(inventoryEntrySchema).describe('Objects applied from the last applied commit; only these are ever pruned.').optional(),
  skipped: z.array(skippedEntrySchema).describe('Objects left alone because another tool (Argo CD, Flux) tracks them.').optional(),
  history: z.array(historyEntrySchema).describe('The last commits synced, newest first.').optional(),
  lastHandledReconcileAt: z.string().describe('The flowops.io/reconcile-requested-at value the last sync answered (flowops reconcile source --wait).').optional(),
});

export const flowSourceSchema = z.object({
  apiVersion: z.literal(FLOWSOURCE_API_VERSION),
  kind: z.literal(FLOWSOURCE_KIND),
  metadata: z.object({ name: z.string(), namespace: z.string().optional() }).passthrough(),
  spec: flowSourceSpecSchema,
  status: flowSourceStatusSchema.optional(),
});

export type FlowSourceSpec = z.infer<typeof flowSourceSpecSchema>;
export type FlowSourceStatus = z.infer<typeof flowSourceStatusSchema>;
export type InventoryEntry = z.infer<typeof inventoryEntrySchema>;
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type SkippedEntry = z.infer<typeof skippedEntrySchema>;
