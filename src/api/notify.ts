import { z } from 'zod';
import { isDuration } from './duration.js';
import { conditionSchema } from './status.js';
import { ALERT_KIND, FLOW_API_VERSION, PROVIDER_KIND } from './names.js';

/**
 * The Provider and Alert resources (flowops.io/v1, namespaced), modelled on Flux's
 * notification-controller: a Provider says where and how to send, an Alert which events go there.
 * One zod schema gives the TypeScript type and the CRD schema.
 */

const duration = z.string().refine(isDuration, { message: 'expected a duration such as "30s", "5m" or "1h30m"' });
const localRef = z.object({ name: z.string().min(1) }).strict();

export const PROVIDER_TYPES = [
  'generic',
  'slack',
  'msteams',
  'discord',
  'alertmanager',
  'grafana',
  'github',
  'gitlab',
  'gitea',
  'bitbucket',
] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** The providers that set a commit status on the forge rather than send a message. */
export const COMMIT_STATUS_TYPES: ReadonlySet<ProviderType> = new Set(['github', 'gitlab', 'gitea', 'bitbucket']);

export const providerSpecSchema = z
  .object({
    type: z
      .enum(PROVIDER_TYPES)
      .describe(
        'Where notifications go: a message to a webhook, chat, Alertmanager or Grafana, or a commit status on a forge.',
      ),
    address: z
      .string()
      .regex(/^https?:\/\//, 'expected an http:// or https:// URL')
      .describe(
        'URL: the webhook (generic, slack, msteams, discord), Alertmanager or Grafana base URL, or the repository ' +
          '(github, gitlab, gitea, bitbucket: https://host/owner/repo). Optional when the Secret has an `address` key.',
      )
      .optional(),
    channel: z.string().describe('slack with a bot token: the channel to post to.').optional(),
    secretRef: localRef
      .describe(
        'Secret in the same namespace: `token` (bot token, API token; bitbucket: `username:app-password`), ' +
          '`address` (a webhook URL kept secret), `hmacKey` (generic: signs the body with HMAC-SHA256).',
      )
      .optional(),
    certSecretRef: localRef
      .describe("Secret whose `ca.crt` is the CA bundle the provider's TLS certificate is checked against.")
      .optional(),
    proxy: z
      .string()
      .regex(/^https?:\/\//, 'expected an http:// or https:// proxy URL')
      .describe('HTTP(S) proxy to send through.')
      .optional(),
    timeout: duration.describe('Per request (default "15s").').optional(),
    suspend: z.boolean().describe('Send nothing while true.').optional(),
  })
  .strict();

export const providerStatusSchema = z.object({
  observedGeneration: z.number().int().min(0).optional(),
  conditions: z
    .array(conditionSchema)
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
    .optional(),
  lastSent: z.string().describe('RFC 3339 time the last notification was delivered.').optional(),
  failures: z
    .number()
    .int()
    .min(0)
    .describe('Deliveries that failed for good (after every retry) since the provider was last Ready.')
    .optional(),
});

export const providerSchema = z.object({
  apiVersion: z.literal(FLOW_API_VERSION),
  kind: z.literal(PROVIDER_KIND),
  metadata: z.object({ name: z.string(), namespace: z.string().optional() }).passthrough(),
  spec: providerSpecSchema,
  status: providerStatusSchema.optional(),
});

export const eventSourceSchema = z
  .object({
    kind: z.string().min(1).describe('FlowSource, Flow, a watched kind (e.g. ConfigMap), or "*".'),
    name: z.string().min(1).describe('Object name, or "*" (default) for all.').optional(),
    namespace: z.string().min(1).describe('Default: the Alert\'s namespace; "*" for all.').optional(),
  })
  .strict();

const regex = z.string().refine(
  (s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'expected a JavaScript regular expression' },
);

export const alertSpecSchema = z
  .object({
    providerRef: localRef.describe('Provider in the same namespace.'),
    eventSources: z.array(eventSourceSchema).min(1).describe('The objects whose events this Alert sends.'),
    eventSeverity: z
      .enum(['info', 'error'])
      .describe('info (default) sends every event; error only failures.')
      .optional(),
    inclusionList: z.array(regex).describe('Send only events whose message matches one of these.').optional(),
    exclusionList: z.array(regex).describe('Never send events whose message matches one of these.').optional(),
    groupWindow: duration
      .describe(
        'Events of one commit go as one message, sent once no new one came for this long ' +
          '(at most six windows after the first; default "10s").',
      )
      .optional(),
    suppressWindow: duration
      .describe('The same event again within this window is not sent again (default "10m").')
      .optional(),
    summary: z.string().max(255).describe('A line put at the top of every message.').optional(),
    suspend: z.boolean().describe('Send nothing while true.').optional(),
  })
  .strict();

export const alertStatusSchema = z.object({
  observedGeneration: z.number().int().min(0).optional(),
  conditions: z
    .array(conditionSchema)
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
    .optional(),
});

export const alertSchema = z.object({
  apiVersion: z.literal(FLOW_API_VERSION),
  kind: z.literal(ALERT_KIND),
  metadata: z.object({ name: z.string(), namespace: z.string().optional() }).passthrough(),
  spec: alertSpecSchema,
  status: alertStatusSchema.optional(),
});

export type ProviderSpec = z.infer<typeof providerSpecSchema>;
export type ProviderStatus = z.infer<typeof providerStatusSchema>;
export type AlertSpec = z.infer<typeof alertSpecSchema>;
export type EventSource = z.infer<typeof eventSourceSchema>;
