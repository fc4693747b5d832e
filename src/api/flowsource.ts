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
    branch: z
      .string()
      .min(1)
      .describe('Branch to follow (default "main"); kept while pinned so that --unpin returns to it.')
      .optional(),
    tag: z.string().min(1).describe('Tag to follow instead of a branch.').optional(),
    commit: z
      .string()
      .regex(/^[0-9a-f]{40}$/, 'expected a full 40-character commit sha')
      .describe('Pin: apply exactly this commit and never move forward (set by `flowops rollback --to`).')
      .optional(),
  })
  .strict()
  .refine((r) => !(r.branch && r.tag), { message: 'set branch or tag, not both' });

export const verifySchema = z
  .object({
    mode: z
      .enum(['head', 'all'])
      .describe(
        'head (default): the commit to apply must be signed by a trusted key. all: so must every commit ' +
          'since the last verified one (the first sync checks the head only).',
      )
      .optional(),
    secretRef: localRef.describe(
      'Secret in the same namespace with the trusted keys: armored OpenPGP public keys under keys ending in .asc, ' +
        'SSH allowed-signers lines under allowed_signers.',
    ),
  })
  .strict();

export const decryptionSchema = z
  .object({
    provider: z
      .literal('sops')
      .describe('sops: files encrypted with SOPS (age or OpenPGP recipients) are decrypted at apply time.'),
    secretRef: localRef.describe(
      'Secret in the same namespace with the private keys: age identities under keys ending in .agekey, ' +
        'armored OpenPGP private keys under keys ending in .asc.',
    ),
  })
  .strict();

const ociDigest = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'expected sha256: followed by 64 hex digits');

export const ociRefSchema = z
  .object({
    tag: z.string().min(1).describe('Tag to follow (default "latest").').optional(),
    semver: z
      .string()
      .min(1)
      .describe('Follow the newest tag in this semver range (e.g. ">=1.0.0 <2.0.0").')
      .optional(),
    digest: ociDigest
      .describe(
        'Pin: apply exactly this manifest digest and never move (set by `flowops rollback --to`); ' +
          'wins over tag and semver.',
      )
      .optional(),
  })
  .strict()
  .refine((r) => !(r.tag && r.semver), { message: 'set tag or semver, not both' });

export const ociSourceSchema = z
  .object({
    url: z
      .string()
      .regex(/^oci:\/\/[^/]+\/[^:@]+$/, 'expected oci://registry/repository (no tag: the tag goes in ref)')
      .describe('The OCI repository, as oci://registry[:port]/repository.'),
    ref: ociRefSchema
      .describe('What to follow: a tag (default latest), a semver range, or a pinned digest.')
      .optional(),
    secretRef: localRef
      .describe("Secret of type kubernetes.io/dockerconfigjson in the same namespace with the registry's credentials.")
      .optional(),
    insecure: z
      .boolean()
      .describe('Talk plain HTTP to the registry (a registry on loopback); default HTTPS.')
      .optional(),
    verify: z
      .object({
        provider: z.literal('cosign').describe('cosign signatures (the <digest>.sig tag), as Flux OCIRepository.'),
        secretRef: localRef
          .describe('Secret in the same namespace whose keys ending in .pub hold trusted cosign public keys (PEM).')
          .optional(),
      })
      .strict()
      .describe('Apply only artifacts signed by a trusted cosign key; keyless (no secretRef) is not supported offline.')
      .optional(),
  })
  .strict();

export const previewRenderSchema = z
  .object({
    objects: z
      .string()
      .describe(
        'Folder (or file) in the repository of sample watched objects to render; default: the watched ' +
          'objects that exist in the cluster.',
      )
      .optional(),
    stubs: z
      .string()
      .describe('Stub file in the repository with script and http step outputs (as `flowops render --stub`).')
      .optional(),
    maxObjects: z
      .number()
      .int()
      .min(0)
      .max(50)
      .describe('Watched objects rendered per changed Flow (default 5; 0 turns rendering off).')
      .optional(),
  })
  .strict();

export type PreviewRender = z.infer<typeof previewRenderSchema>;

export const previewsSchema = z
  .object({
    providerRef: localRef.describe(
      'Provider (type github, gitlab, gitea or bitbucket) whose address names the repository and whose ' +
        'Secret holds the API token.',
    ),
    interval: duration.describe('How often open pull requests are listed (default "1m").').optional(),
    render: previewRenderSchema
      .describe(
        "What each changed Flow's steps would create, shown folded in the comment (as `flowops render`: " +
          'script and http steps stubbed, never run).',
      )
      .optional(),
  })
  .strict();

export const flowSourceSpecSchema = z
  .object({
    url: z
      .string()
      .regex(/^https?:\/\//, 'expected an http:// or https:// Git URL (FlowOps fetches over smart HTTP)')
      .describe('Clone URL of the repository (smart HTTP/HTTPS). Required unless spec.oci is set.')
      .optional(),
    oci: ociSourceSchema
      .describe(
        "Follow an OCI artifact (Flux's media types, as `flowops push artifact` and `flux push artifact` make) " +
          'instead of a Git repository; set this or url, not both.',
      )
      .optional(),
    ref: sourceRefSchema.describe('What to follow: a branch (default main), a tag, or a pinned commit.').optional(),
    path: z
      .string()
      .describe('Folder inside the repository that holds the definitions (default: the whole repository).')
      .optional(),
    interval: duration.describe('How often to poll (default "1m"; a webhook or push triggers at once).').optional(),
    secretRef: localRef
      .describe('Secret in the same namespace with username + password, or bearerToken, for HTTP auth.')
      .optional(),
    webhookSecretRef: localRef
      .describe('Secret whose `token` key checks webhook calls (HMAC for GitHub and Gitea, token for GitLab).')
      .optional(),
    verify: verifySchema
      .describe(
        'Apply only commits signed by a trusted key (Flux GitRepository.spec.verify); ' +
          'a source following a tag verifies the signed tag instead.',
      )
      .optional(),
    decryption: decryptionSchema
      .describe('Decrypt SOPS-encrypted files in memory before applying them (Flux Kustomization.spec.decryption).')
      .optional(),
    previews: previewsSchema
      .describe(
        'Preview open pull/merge requests that target the followed branch: validate, diff against live, ' +
          'one comment per request (edited in place) and a commit status; nothing is applied.',
      )
      .optional(),
    suspend: z.boolean().describe('Stop polling and applying (the applied objects stay).').optional(),
    serviceAccountName: z
      .string()
      .regex(
        /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/,
        'expected a ServiceAccount name (lower-case letters, digits, "-" or ".")',
      )
      .describe(
        'What this source applies and prunes is applied as this ServiceAccount of its namespace (impersonation).',
      )
      .optional(),
    prune: z
      .boolean()
      .describe(
        'When the FlowSource is deleted, delete what it applied (default true, as Flux does with prune). false leaves the objects in place.',
      )
      .optional(),
  })
  .strict()
  .refine((s) => !!s.url !== !!s.oci, {
    message: 'set url (a Git repository) or oci (an OCI repository), exactly one',
    path: ['url'],
  })
  .refine((s) => !(s.oci && (s.ref || s.verify || s.previews)), {
    message: 'ref, verify and previews are for a Git source; an OCI source takes spec.oci.ref',
  });

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
  outcome: z
    .enum(['Applied', 'Rejected', 'Failed', 'Refused'])
    .describe('Refused: spec.verify found no trusted signature; nothing applied.'),
  message: z.string().optional(),
  signer: z
    .string()
    .describe('Who signed the commit (key fingerprint and user or principals), or "unsigned"; set with spec.verify.')
    .optional(),
  subject: z.string().describe("The commit's subject line.").optional(),
  author: z.string().describe("The commit's author name.").optional(),
  authoredAt: z.string().describe('When the commit was authored (RFC 3339).').optional(),
  origin: z
    .string()
    .describe('For an OCI source: the Git revision the artifact was pushed from (org.opencontainers.image.revision).')
    .optional(),
});

export const COMMIT_STATES = ['pending', 'success', 'failure', 'error'] as const;

export const commitStateSchema = z.object({
  revision: z.string(),
  state: z.enum(COMMIT_STATES),
  description: z.string().optional(),
  time: z.iso.datetime({ offset: true }),
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
  conditions: z
    .array(conditionSchema)
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
    .optional(),
  lastAppliedRevision: z.string().optional(),
  lastAttemptedRevision: z.string().optional(),
  lastVerifiedCommit: z
    .string()
    .describe('The last commit whose signature spec.verify accepted; mode all checks every commit after it.')
    .optional(),
  inventory: z
    .array(inventoryEntrySchema)
    .describe('Objects applied from the last applied commit; only these are ever pruned.')
    .optional(),
  skipped: z
    .array(skippedEntrySchema)
    .describe('Objects left alone because another tool (Argo CD, Flux) tracks them.')
    .optional(),
  history: z.array(historyEntrySchema).describe('The last commits synced, newest first.').optional(),
  commits: z
    .array(commitStateSchema)
    .describe(
      'The state each recent commit reached, as sent to the forge (pending, success, failure, error); newest first.',
    )
    .optional(),
  lastHandledReconcileAt: z
    .string()
    .describe('The flowops.io/reconcile-requested-at value the last sync answered (flowops reconcile source --wait).')
    .optional(),
});

export const flowSourceSchema = z.object({
  apiVersion: z.literal(FLOWSOURCE_API_VERSION),
  kind: z.literal(FLOWSOURCE_KIND),
  metadata: z.object({ name: z.string(), namespace: z.string().optional() }).passthrough(),
  spec: flowSourceSpecSchema,
  status: flowSourceStatusSchema.optional(),
});

export type OciSourceSpec = z.infer<typeof ociSourceSchema>;
export type VerifySpec = z.infer<typeof verifySchema>;
export type FlowSourceSpec = z.infer<typeof flowSourceSpecSchema>;
export type FlowSourceStatus = z.infer<typeof flowSourceStatusSchema>;
export type InventoryEntry = z.infer<typeof inventoryEntrySchema>;
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type CommitState = z.infer<typeof commitStateSchema>;
export type SkippedEntry = z.infer<typeof skippedEntrySchema>;
