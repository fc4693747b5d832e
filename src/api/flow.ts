import { z } from 'zod';
import { chartRefSchema } from './chart-ref.js';
import { isDuration } from './duration.js';
import { flowStatusSchema } from './status.js';
import { rolloutSchema } from './rollout-spec.js';

/**
 * The Flow resource (flowops.io/v1). This zod schema is the one source of truth: the TypeScript
 * types below are inferred from it, `crd.ts` turns it into the CRD's openAPIV3Schema, and
 * `validate.ts` turns its issues into file:line errors.
 */

const duration = z.string().refine(isDuration, { message: 'expected a duration such as "30s", "5m" or "1h30m"' });
const stepName = z
  .string()
  .regex(
    /^[a-zA-Z0-9]([-a-zA-Z0-9_]*[a-zA-Z0-9])?$/,
    'expected letters, digits, "-" or "_", starting and ending with a letter or digit',
  );

export const codeMatcher = z
  .object({ statusCode: z.number().int().optional(), exitCode: z.number().int().optional() })
  .strict()
  .refine((m) => m.statusCode !== undefined || m.exitCode !== undefined, {
    message: 'expected statusCode or exitCode',
  });

export const errorHandlingSchema = z
  .object({
    type: z
      .enum(['permanent', 'temporary', 'retryable'])
      .describe(
        'permanent: never retry; temporary: retry every failure; retryable (default): retry throttling, timeouts and 5xx.',
      )
      .optional(),
    maxRetries: z.number().int().min(0).max(100).describe('Retries after the first attempt (default 3).').optional(),
    backoff: z
      .enum(['fixed', 'linear', 'exponential'])
      .describe('How the delay grows between retries (default exponential).')
      .optional(),
    retryDelay: duration.describe('Delay before the first retry (default "1s").').optional(),
    maxDelay: duration.describe('Cap on the delay between retries (default "1m").').optional(),
    timeout: duration.describe('Limit for one attempt when the step sets no timeout (default "5m").').optional(),
    retryOn: z.array(codeMatcher).describe('When given, the only status or exit codes that are retried.').optional(),
    failOn: z.array(codeMatcher).describe('Status or exit codes that are never retried.').optional(),
  })
  .strict();

const base = {
  name: stepName.describe(
    "Unique within its list; later steps read this step's outputs as {{ .Steps.<name>.Outputs.<key> }}.",
  ),
  when: z.string().describe('A template; the step runs only when it renders to a truthy value.').optional(),
  errorHandling: errorHandlingSchema.describe('How failures of this step are retried.').optional(),
  timeout: duration.describe('Limit for one attempt, e.g. "30s" or "5m".').optional(),
};

/** Applied objects are children of the watched object; this decides readiness for kinds kstatus does not know. */
const readyWhen = z
  .string()
  .describe(
    'A template rendered for every object this step applies ({{ .Child }}, {{ .Resource }}); truthy means ready. Without it, kstatus rules decide.',
  );

/** A field name under the watched object's .status that a Flow may write (not one FlowOps writes itself). */
export const STATUS_FIELD = /^[a-zA-Z][a-zA-Z0-9_]*$/;
export const RESERVED_STATUS_FIELDS: ReadonlySet<string> = new Set(['conditions', 'observedGeneration']);

const objectRef = z
  .object({ apiVersion: z.string(), kind: z.string(), name: z.string(), namespace: z.string().optional() })
  .strict();

export const kubectlStepSchema = z
  .object({
    ...base,
    type: z.literal('kubectl'),
    action: z.enum(['apply', 'delete', 'patch', 'get', 'wait']).describe('kubectl: what to do with the objects.'),
    manifests: z.string().describe('kubectl apply / delete: one or more YAML documents (templated).').optional(),
    target: objectRef
      .describe('kubectl patch / get / wait / delete: the object acted on (templated fields).')
      .optional(),
    patchType: z
      .enum(['merge', 'json', 'strategic'])
      .describe('kubectl patch: the patch format (default merge).')
      .optional(),
    patch: z.string().describe('kubectl patch: the patch body, YAML or JSON (templated).').optional(),
    condition: z
      .string()
      .describe('kubectl wait: a condition such as "Ready" or "condition=Available", or "delete".')
      .optional(),
    outputs: z
      .record(z.string(), z.string())
      .describe(
        'kubectl get: output name to JSONPath into the object (".spec.replicas"); without it the whole object is output `object`.',
      )
      .optional(),
    ownerReference: z
      .boolean()
      .describe(
        'Set an ownerReference to the watched resource on created objects (default true where Kubernetes allows it).',
      )
      .optional(),
    readyWhen: readyWhen.optional(),
  })
  .strict();

export const scriptStepSchema = z
  .object({
    ...base,
    type: z.literal('script'),
    language: z.enum(['bash', 'python']).describe('script: the interpreter (default bash).').optional(),
    script: z
      .string()
      .describe('script: the program; template values reach it as environment variables, never spliced into its text.'),
    env: z
      .record(z.string(), z.string())
      .describe('script: extra environment variables (templated values).')
      .optional(),
  })
  .strict();

export const templateStepSchema = z
  .object({
    ...base,
    type: z.literal('template'),
    engine: z.enum(['helm', 'kustomize']).describe('template: which renderer; the rendered objects are then applied.'),
    chart: z
      .union([z.string(), chartRefSchema])
      .describe(
        "template helm: a chart directory (relative to the Flow's source folder, or absolute), or " +
          '{repository, name, version} for a chart from an HTTP chart repository or an OCI registry.',
      )
      .optional(),
    path: z.string().describe('template kustomize: the kustomization directory.').optional(),
    values: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .describe('template helm: values as a map whose string leaves may be templates, or as a templated YAML string.')
      .optional(),
    releaseName: z
      .string()
      .describe("template helm: the release name (default: the watched resource's name).")
      .optional(),
    namespace: z
      .string()
      .describe("template: namespace for rendered objects that name none (default: the watched resource's).")
      .optional(),
    ownerReference: z
      .boolean()
      .describe(
        'Set an ownerReference to the watched resource on created objects (default true where Kubernetes allows it).',
      )
      .optional(),
    readyWhen: readyWhen.optional(),
  })
  .strict();

const secretKeyRef = z.object({ secretKeyRef: z.object({ name: z.string(), key: z.string() }).strict() }).strict();

export const httpStepSchema = z
  .object({
    ...base,
    type: z.literal('http'),
    url: z.string().describe('http: the request URL (templated).'),
    method: z
      .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'])
      .describe('http: the request method (default GET).')
      .optional(),
    headers: z
      .record(z.string(), z.union([z.string(), secretKeyRef]))
      .describe('http: header values, templated strings or {secretKeyRef: {name, key}}.')
      .optional(),
    body: z.unknown().describe('http: the request body, sent as JSON; string leaves may be templates.').optional(),
    outputs: z
      .record(z.string(), z.string())
      .describe('http: output name to JSONPath into the JSON response body.')
      .optional(),
  })
  .strict();

export const pipelineStepSchema = z
  .object({
    ...base,
    type: z.literal('pipeline'),
    expression: z
      .unknown()
      .describe('pipeline: a Δ-controller expression evaluated over the resource; its fields become outputs.'),
  })
  .strict();

export const stepSchema = z.discriminatedUnion('type', [
  kubectlStepSchema,
  scriptStepSchema,
  templateStepSchema,
  httpStepSchema,
  pipelineStepSchema,
]);

const steps = z
  .object({
    steps: z.array(stepSchema).min(1).describe('Run in order; the first step that fails for good stops the list.'),
  })
  .strict();

const labelSelector = z
  .object({
    matchLabels: z.record(z.string(), z.string()).optional(),
    matchExpressions: z
      .array(
        z
          .object({
            key: z.string(),
            operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
            values: z.array(z.string()).optional(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();

export const flowSpecSchema = z
  .object({
    watch: z
      .object({
        apiVersion: z.string().min(1),
        kind: z.string().min(1),
        namespace: z.string().describe('Only this namespace; empty or absent watches every namespace.').optional(),
        labelSelector: labelSelector.optional(),
      })
      .strict()
      .describe('The kind this Flow reconciles: every object of it is run through the steps.'),
    reconcile: steps.describe('Steps run whenever a watched object is created or changes.').optional(),
    onDelete: steps.describe('Steps run when a watched object is deleted, before its finalizer is removed.').optional(),
    onError: steps.describe('Steps run when reconcile fails for good; {{ .Error }} holds the failure.').optional(),
    pipeline: z
      .unknown()
      .describe('A Δ-controller declarative pipeline, instead of reconcile steps; needs target.')
      .optional(),
    target: z
      .object({ apiVersion: z.string().optional(), kind: z.string(), type: z.enum(['Updater', 'Patcher']).optional() })
      .strict()
      .describe("Where the pipeline's results are written.")
      .optional(),
    suspend: z.boolean().describe('Stop reconciling until set back to false.').optional(),
    serviceAccountName: z
      .string()
      .regex(
        /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/,
        'expected a ServiceAccount name (lower-case letters, digits, "-" or ".")',
      )
      .describe(
        "Every call made for this Flow (steps, status, children) impersonates this ServiceAccount of the Flow's namespace, so RBAC decides what it may do.",
      )
      .optional(),
    status: z
      .record(z.string(), z.string())
      .describe(
        "Fields written into the watched object's .status after the steps: name to template over .Resource, .Steps and .Children; a single action keeps its type.",
      )
      .optional(),
    resyncInterval: duration
      .describe('Re-run every watched object this often (jittered ±10 %), for inputs outside the cluster; default off.')
      .optional(),
    rollout: rolloutSchema
      .describe(
        'Roll a new generation out to the watched objects in stages, each gated on their readiness (docs/rollout.md).',
      )
      .optional(),
  })
  .strict()
  .refine((s) => s.reconcile !== undefined || s.pipeline !== undefined, {
    message: 'expected reconcile.steps, or pipeline with target',
    path: ['reconcile'],
  })
  .refine((s) => (s.pipeline === undefined) === (s.target === undefined), {
    message: 'pipeline and target go together',
    path: ['target'],
  });

export const flowSchema = z.object({
  apiVersion: z.literal('flowops.io/v1'),
  kind: z.literal('Flow'),
  metadata: z.object({ name: z.string().min(1), namespace: z.string().optional() }).passthrough(),
  spec: flowSpecSchema,
  status: flowStatusSchema.optional(),
});

export type Flow = z.infer<typeof flowSchema>;
export type FlowSpec = z.infer<typeof flowSpecSchema>;
export type Step = z.infer<typeof stepSchema>;
export type KubectlStep = z.infer<typeof kubectlStepSchema>;
export type ScriptStep = z.infer<typeof scriptStepSchema>;
export type TemplateStep = z.infer<typeof templateStepSchema>;
export type HttpStep = z.infer<typeof httpStepSchema>;
export type PipelineStep = z.infer<typeof pipelineStepSchema>;
export type ErrorHandling = z.infer<typeof errorHandlingSchema>;
export type StepType = Step['type'];

export { FLOW_API_VERSION, FLOW_GROUP, FLOW_KIND, FLOW_PLURAL, FLOW_VERSION } from './names.js';
/** The step types in the order the schema lists them; error messages and the CRD enum use this order. */
export const STEP_TYPES: readonly StepType[] = stepSchema.options.map((o) => o.shape.type.value);
export type { Condition, FlowStatus } from './status.js';
