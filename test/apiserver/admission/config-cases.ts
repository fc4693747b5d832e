import type { ApiCall } from './webhook-cases.js';

/**
 * Webhook configurations as stored: the defaults a minimal one gets and the refusals of invalid ones
 * (test/apiserver/admission-config.test.ts on the embedded server, test/real/admission-side-by-side
 * on both). Sent as dry runs, so nothing is left behind.
 */
type Json = Record<string, unknown>;

const BASE: Json = {
  name: 'a.b.c',
  admissionReviewVersions: ['v1'],
  sideEffects: 'None',
  clientConfig: { url: 'https://127.0.0.1:1/x' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};

export const CONFIG_CASES: Array<[string, Json]> = [
  ['minimal', BASE],
  ['service', { ...BASE, clientConfig: { service: { name: 's', namespace: 'default' } } }],
  ['no-side-effects', { ...BASE, sideEffects: undefined }],
  ['side-effects-some', { ...BASE, sideEffects: 'Some' }],
  ['no-review-versions', { ...BASE, admissionReviewVersions: [] }],
  ['timeout-31', { ...BASE, timeoutSeconds: 31 }],
  ['short-name', { ...BASE, name: 'ab' }],
  ['url-and-service', { ...BASE, clientConfig: { url: 'https://x/y', service: { name: 's', namespace: 'default' } } }],
  ['no-client-config', { ...BASE, clientConfig: {} }],
];

export interface ConfigOutcome {
  status: number;
  message: unknown;
  causes: unknown;
  /** The stored webhook, keys sorted (Go's struct order is not JSON's concern here). */
  webhook: unknown;
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, x]) => [k, sorted(x)]),
        )
      : v;

export async function runConfigCase(
  call: ApiCall,
  kind: 'Validating' | 'Mutating',
  name: string,
  webhook: Json,
): Promise<ConfigOutcome> {
  const plural = `${kind.toLowerCase()}webhookconfigurations`;
  const body = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: [webhook],
  };
  const r = await call('POST', `/apis/admissionregistration.k8s.io/v1/${plural}?dryRun=All`, body);
  const details = r.body.details as { causes?: unknown } | undefined;
  const webhooks = r.body.webhooks as unknown[] | undefined;
  return { status: r.status, message: r.body.message, causes: details?.causes, webhook: sorted(webhooks?.[0]) };
}
